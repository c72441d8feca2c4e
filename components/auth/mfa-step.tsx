"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { TextField } from "@/components/ui/text-field";
import { SignInError, type SecondStep } from "@/lib/api-client";
import { useT } from "@/lib/i18n/provider";
import type { Translate } from "@/lib/i18n/translate";
import { securityKeyAnswer, useSecondStep, useSendSignInCode } from "@/lib/queries/mfa";
import { authStyles as styles } from "./auth-card";

type CodeMethod = "otp" | "sms" | "recovery";

function describe(error: unknown, t: Translate): string {
  if (error instanceof SignInError) {
    if (error.reason === "wrong_code") return t("mfa.wrongCode");
    if (error.reason === "mfa_expired") return t("mfa.signInExpired");
    if (error.reason === "too_many_requests") return t("error.tooMany", { seconds: error.retryAfter ?? 60 });
    if (error.reason === "network_error") return t("error.network");
    return t("error.generic");
  }
  // The browser's own refusal of the key prompt (cancelled, timed out, no key).
  if (error instanceof Error && error.name !== "ApiError") return t("mfa.keyCancelled");
  return t("error.generic");
}

/** The sign-in's second step: a security key, an app code, an SMS code or a recovery code. */
export function MfaStep({ step, next, onBack }: { step: SecondStep; next: string; onBack: () => void }) {
  const t = useT();
  const submit = useSecondStep(next);
  const sendCode = useSendSignInCode();
  const hasKey = step.methods.includes("webauthn");
  const codeMethods = (["otp", "sms", "recovery"] as const).filter((m) => step.methods.includes(m));
  const [method, setMethod] = useState<CodeMethod | null>(codeMethods.find((m) => m !== "recovery") ?? (hasKey ? null : "recovery"));
  const [keyError, setKeyError] = useState<unknown>(null);
  const [keyBusy, setKeyBusy] = useState(false);

  async function useKey() {
    setKeyError(null);
    setKeyBusy(true);
    try {
      const response = await securityKeyAnswer(step.mfaToken);
      submit.mutate({ mfaToken: step.mfaToken, method: "webauthn", response });
    } catch (error) {
      setKeyError(error);
    } finally {
      setKeyBusy(false);
    }
  }

  function submitCode(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get("code") ?? "").trim();
    if (method && code) submit.mutate({ mfaToken: step.mfaToken, method, code });
  }

  const expired = submit.error instanceof SignInError && submit.error.reason === "mfa_expired";
  const status: Status = submit.isError
    ? { tone: "error", message: describe(submit.error, t) }
    : keyError
      ? { tone: "error", message: describe(keyError, t) }
      : sendCode.isError
        ? { tone: "error", message: t("mfa.smsNotSent") }
        : sendCode.isSuccess
          ? { tone: "info", message: t("mfa.smsSent", { phone: sendCode.data.phone }) }
          : null;
  const busy = submit.isPending || submit.isSuccess || keyBusy;
  const label: Record<CodeMethod, string> = { otp: t("mfa.appCode"), sms: t("mfa.smsCodeShort"), recovery: t("mfa.recoveryCode") };

  return (
    <div className={styles.form} data-testid="mfa-step">
      <FormStatus status={status} banner />
      <p>{t("mfa.stepIntro")}</p>
      {hasKey && (
        <Button block onClick={useKey} disabled={busy || expired} autoFocus={!method}>
          {keyBusy ? t("mfa.keyTouch") : t("mfa.useKey")}
        </Button>
      )}
      {method === "sms" && !sendCode.isSuccess && (
        <Button block variant="secondary" onClick={() => sendCode.mutate(step.mfaToken)} disabled={sendCode.isPending || expired}>
          {t("mfa.smsSend")}
        </Button>
      )}
      {method && (
        <form className={styles.form} onSubmit={submitCode} noValidate>
          <TextField
            key={method}
            label={label[method]}
            name="code"
            inputMode={method === "recovery" ? "text" : "numeric"}
            autoComplete="one-time-code"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={32}
            required
            autoFocus
          />
          <Button type="submit" block disabled={busy || expired}>
            {busy ? t("signIn.submitting") : t("mfa.verify")}
          </Button>
        </form>
      )}
      <div className={styles.group}>
        {codeMethods
          .filter((m) => m !== method)
          .map((m) => (
            <Button key={m} variant="ghost" size="small" onClick={() => (submit.reset(), setMethod(m))}>
              {t(m === "otp" ? "mfa.useAppCode" : m === "sms" ? "mfa.useSms" : "mfa.useRecovery")}
            </Button>
          ))}
        <Button variant="ghost" size="small" onClick={onBack}>
          {t("mfa.back")}
        </Button>
      </div>
    </div>
  );
}
