"use client";

import QRCode from "qrcode";
import { useEffect, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { FormStatus } from "@/components/ui/form-status";
import { TextField } from "@/components/ui/text-field";
import { ApiError } from "@/lib/api-client";
import { useT } from "@/lib/i18n/provider";
import { useDisableOtp, useEnableOtp, useStartOtp, type MfaState } from "@/lib/queries/mfa";
import { describeError } from "./describe-error";
import { ReauthDialog } from "./reauth-dialog";
import styles from "./mfa.module.css";

/** The authenticator app: set up with a QR code (or the secret typed in) and a first code; both ways re-authenticated. */
export function MfaOtp({ state, onCodes }: { state: MfaState; onCodes: (codes: string[]) => void }) {
  const t = useT();
  const start = useStartOtp();
  const enable = useEnableOtp();
  const disable = useDisableOtp();
  const [qr, setQr] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<"start" | "remove" | null>(null);
  const pending = start.data && !state.otp ? start.data : null;

  useEffect(() => {
    if (!pending) return;
    let live = true;
    QRCode.toDataURL(pending.otpauth_url, { margin: 1, width: 176, errorCorrectionLevel: "M" }).then((url) => live && setQr(url));
    return () => {
      live = false;
    };
  }, [pending]);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get("code") ?? "").trim();
    if (!code) return;
    enable.mutate(code, {
      onSuccess: (result) => {
        start.reset();
        if (result.recovery_codes) onCodes(result.recovery_codes);
      },
    });
  }

  const wrong = enable.error instanceof ApiError && enable.error.status === 400;
  return (
    <div className={styles.block}>
      <div className={styles.blockHead}>
        <h3>{t("mfa.app")}</h3>
        <span className={state.otp ? styles.on : styles.state}>{t(state.otp ? "mfa.on" : "mfa.off")}</span>
      </div>
      <p className={styles.state}>{t("mfa.appHelp")}</p>
      {state.otp ? (
        <div className={styles.row}>
          <Button variant="secondary" size="small" onClick={() => setConfirming("remove")}>
            {t("mfa.remove")}
          </Button>
        </div>
      ) : pending ? (
        <form className={styles.setup} onSubmit={submit} noValidate>
          {/* eslint-disable-next-line @next/next/no-img-element -- a data: URL drawn in the browser, not an optimisable asset */}
          {qr && <img className={styles.qr} src={qr} alt={t("mfa.qrAlt")} width={176} height={176} />}
          <div className={styles.setupFields}>
            <p>{t("mfa.appScan")}</p>
            <p>
              {t("mfa.appSecret")} <code className={styles.secret} data-testid="otp-secret">{pending.secret}</code>
            </p>
            <TextField
              label={t("mfa.appCode")}
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={8}
              required
              autoFocus
              error={wrong ? t("mfa.wrongCode") : null}
            />
            <div className={styles.row}>
              <Button type="submit" disabled={enable.isPending}>
                {t("mfa.turnOn")}
              </Button>
              <Button variant="ghost" onClick={() => start.reset()}>
                {t("common.cancel")}
              </Button>
            </div>
            <FormStatus status={enable.isError && !wrong ? { tone: "error", message: describeError(enable.error, t) } : null} />
          </div>
        </form>
      ) : (
        state.can.otp && (
          <div className={styles.row}>
            <Button size="small" onClick={() => setConfirming("start")} disabled={start.isPending}>
              {t("mfa.appSetUp")}
            </Button>
          </div>
        )
      )}
      {confirming === "start" && (
        <ReauthDialog title={t("mfa.appSetUpTitle")} confirmLabel={t("mfa.continue")} method={state.reauth} onConfirm={(reauth) => start.mutateAsync(reauth)} onClose={() => setConfirming(null)} />
      )}
      {confirming === "remove" && (
        <ReauthDialog title={t("mfa.appRemoveTitle")} confirmLabel={t("mfa.remove")} method={state.reauth} danger onConfirm={(reauth) => disable.mutateAsync(reauth)} onClose={() => setConfirming(null)} />
      )}
    </div>
  );
}
