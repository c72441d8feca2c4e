"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { FormStatus } from "@/components/ui/form-status";
import { TextField } from "@/components/ui/text-field";
import { ApiError } from "@/lib/api-client";
import { useT } from "@/lib/i18n/provider";
import { useDisableSms, useEnableSms, useStartSms, type MfaState } from "@/lib/queries/mfa";
import { describeError } from "./describe-error";
import { ReauthDialog } from "./reauth-dialog";
import styles from "./mfa.module.css";

/** Codes by text message: a number, then the code it received; both ways re-authenticated. */
export function MfaSms({ state, onCodes }: { state: MfaState; onCodes: (codes: string[]) => void }) {
  const t = useT();
  const start = useStartSms();
  const enable = useEnableSms();
  const disable = useDisableSms();
  const [removing, setRemoving] = useState(false);
  /** The number waiting for the re-authentication before it is texted. */
  const [phone, setPhone] = useState<string | null>(null);
  if (!state.sms && !state.can.sms) return null;

  function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const typed = String(new FormData(event.currentTarget).get("phone") ?? "").trim();
    if (!typed) return;
    start.reset();
    setPhone(typed);
  }

  function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get("code") ?? "").trim();
    if (code) enable.mutate(code, { onSuccess: (result) => (start.reset(), result.recovery_codes && onCodes(result.recovery_codes)) });
  }

  const badPhone = start.error instanceof ApiError && start.error.code === "invalid_request";
  const wrong = enable.error instanceof ApiError && enable.error.status === 400;
  return (
    <div className={styles.block}>
      <div className={styles.blockHead}>
        <h3>{t("mfa.sms")}</h3>
        <span className={state.sms ? styles.on : styles.state}>{state.sms ? t("mfa.smsOn", { phone: state.sms_phone ?? "" }) : t("mfa.off")}</span>
      </div>
      <p className={styles.state}>{t("mfa.smsHelp")}</p>
      {state.sms ? (
        <div className={styles.row}>
          <Button variant="secondary" size="small" onClick={() => setRemoving(true)}>
            {t("mfa.remove")}
          </Button>
        </div>
      ) : start.isSuccess ? (
        <form className={styles.fieldRow} onSubmit={confirm} noValidate>
          <TextField label={t("mfa.smsCode", { phone: start.data.phone })} name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={8} required autoFocus error={wrong ? t("mfa.wrongCode") : null} />
          <Button type="submit" disabled={enable.isPending}>
            {t("mfa.turnOn")}
          </Button>
          <Button variant="ghost" onClick={() => start.reset()}>
            {t("common.cancel")}
          </Button>
          <FormStatus status={enable.isError && !wrong ? { tone: "error", message: describeError(enable.error, t) } : null} />
        </form>
      ) : (
        <form className={styles.fieldRow} onSubmit={send} noValidate>
          <TextField label={t("mfa.smsPhone")} name="phone" type="tel" autoComplete="tel" hint={t("mfa.smsPhoneHint")} required error={badPhone ? t("mfa.smsBadPhone") : null} />
          <Button type="submit" size="small" disabled={start.isPending}>
            {t("mfa.smsSend")}
          </Button>
          <FormStatus status={start.isError && !badPhone ? { tone: "error", message: describeError(start.error, t) } : null} />
        </form>
      )}
      {phone !== null && (
        <ReauthDialog
          title={t("mfa.smsSetUpTitle", { phone })}
          confirmLabel={t("mfa.smsSend")}
          method={state.reauth}
          // A refused number closes the dialog: the form says what is wrong with it.
          onConfirm={(reauth) => start.mutateAsync({ phone, ...reauth }).catch((e) => (e instanceof ApiError && e.code === "invalid_request" ? undefined : Promise.reject(e)))}
          onClose={() => setPhone(null)}
        />
      )}
      {removing && <ReauthDialog title={t("mfa.smsRemoveTitle")} confirmLabel={t("mfa.remove")} method={state.reauth} danger onConfirm={(reauth) => disable.mutateAsync(reauth)} onClose={() => setRemoving(false)} />}
    </div>
  );
}
