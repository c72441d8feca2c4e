"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { useT } from "@/lib/i18n/provider";
import { useMfaState, useRegenerateRecoveryCodes } from "@/lib/queries/mfa";
import { ReauthDialog } from "./reauth-dialog";
import { MfaKeys } from "./mfa-keys";
import { MfaOtp } from "./mfa-otp";
import { MfaRecoveryCodes } from "./mfa-recovery-codes";
import { MfaSms } from "./mfa-sms";
import styles from "./mfa.module.css";

/** The factors themselves, for the account page and the forced enrolment step. */
export function MfaFactors() {
  const t = useT();
  const { data: state } = useMfaState();
  const regenerate = useRegenerateRecoveryCodes();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [renewing, setRenewing] = useState(false);
  if (!state) return <p className="muted">{t("common.loading")}</p>;
  const hasFactor = state.otp || state.sms || state.webauthn.length > 0;

  return (
    <div className={styles.setupFields}>
      {codes && <MfaRecoveryCodes codes={codes} onDone={() => setCodes(null)} />}
      <MfaOtp state={state} onCodes={setCodes} />
      <MfaKeys state={state} onCodes={setCodes} />
      <MfaSms state={state} onCodes={setCodes} />
      {hasFactor && !codes && (
        <div className={styles.block}>
          <div className={styles.blockHead}>
            <h3>{t("mfa.recoveryTitle")}</h3>
            <span className={styles.state}>{t("mfa.recoveryLeft", { count: state.recovery_codes_left })}</span>
          </div>
          <div className={styles.row}>
            <Button variant="secondary" size="small" onClick={() => setRenewing(true)}>
              {t("mfa.recoveryNew")}
            </Button>
          </div>
        </div>
      )}
      {renewing && (
        <ReauthDialog
          title={t("mfa.recoveryNew")}
          confirmLabel={t("mfa.recoveryNew")}
          method={state.reauth}
          onConfirm={async (reauth) => setCodes((await regenerate.mutateAsync(reauth)).recovery_codes)}
          onClose={() => setRenewing(false)}
        />
      )}
    </div>
  );
}

/** Account page: "Two-step verification". */
export function MfaSection() {
  const t = useT();
  const { data: state } = useMfaState();
  return (
    <Card title={t("mfa.title")} description={state?.required ? t("mfa.requiredHelp") : t("mfa.help")}>
      <MfaFactors />
    </Card>
  );
}
