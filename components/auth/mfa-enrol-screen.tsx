"use client";

import { MfaFactors } from "@/components/account/mfa-section";
import { Button } from "@/components/ui/button";
import { useT } from "@/lib/i18n/provider";
import { useMfaState } from "@/lib/queries/mfa";
import { useSignOut } from "@/lib/queries/session";
import { AuthCard, authStyles as styles } from "./auth-card";

/**
 * Signed in, but a second factor is demanded and none is set up: the API answers everything else
 * with 401 mfa_enrollment_required, so this is the only page until one is.
 */
export function MfaEnrolScreen({ platformName, next }: { platformName: string; next: string }) {
  const t = useT();
  const { data: state } = useMfaState();
  const signOut = useSignOut();
  const done = Boolean(state && !state.enrollment_required);
  return (
    <AuthCard platformName={platformName} title={t("mfa.enrolTitle")} intro={t("mfa.enrolIntro")}>
      <div className={styles.form} data-testid="mfa-enrol">
        <MfaFactors />
        <Button block disabled={!done} onClick={() => window.location.assign(next)}>
          {t("mfa.enrolContinue")}
        </Button>
        <Button block variant="ghost" onClick={() => signOut.mutate()}>
          {t("mfa.signOut")}
        </Button>
      </div>
    </AuthCard>
  );
}
