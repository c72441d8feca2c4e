"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { FormStatus } from "@/components/ui/form-status";
import { TextField } from "@/components/ui/text-field";
import { SignInError } from "@/lib/api-client";
import { useT } from "@/lib/i18n/provider";
import type { Translate } from "@/lib/i18n/translate";
import { useSignIn } from "@/lib/queries/session";
import { AuthCard, authStyles as styles } from "./auth-card";
import { MfaStep } from "./mfa-step";
import { SsoSignIn, useSsoFailure, useSsoSecondStep } from "./sso-sign-in";

function describe(error: unknown, t: Translate): string {
  if (!(error instanceof SignInError)) return t("error.generic");
  switch (error.reason) {
    case "wrong_credentials":
      return t("signIn.wrongCredentials");
    case "account_inactive":
      return t("signIn.inactive");
    case "account_expired":
      return t("signIn.expired");
    case "connection_not_allowed":
      return t("signIn.notAllowed");
    case "directory_unavailable":
      return t("signIn.directoryUnavailable");
    case "too_many_requests":
      return t("error.tooMany", { seconds: error.retryAfter ?? 60 });
    case "network_error":
      return t("error.network");
    default:
      return t("error.generic");
  }
}

/** `invited`: the person just created their account from an invitation (components/invite). */
export function SignInScreen({ platformName, next, expired, invited = false }: { platformName: string; next: string; expired: boolean; invited?: boolean }) {
  const t = useT();
  const signIn = useSignIn(next);
  const [missing, setMissing] = useState(false);
  const ssoFailure = useSsoFailure();
  // A right password (or a single sign-on) for an account with a second factor: the second step follows.
  const ssoStep = useSsoSecondStep();
  const [stepDismissed, setStepDismissed] = useState(false);
  const passwordStep = signIn.error instanceof SignInError && signIn.error.reason === "mfa_required" ? (signIn.error.secondStep ?? null) : null;
  const secondStep = passwordStep ?? (stepDismissed ? null : ssoStep);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const login = String(form.get("login") ?? "").trim();
    const password = String(form.get("password") ?? "");
    setMissing(!login || !password);
    if (login && password) signIn.mutate({ login, password });
  }

  const status = missing
    ? { tone: "error" as const, message: t("signIn.missing") }
    : signIn.isError
      ? { tone: "error" as const, message: describe(signIn.error, t) }
      : ssoFailure && signIn.isIdle
        ? ssoFailure
        : expired && signIn.isIdle
          ? { tone: "info" as const, message: t("signIn.sessionEnded") }
          : invited && signIn.isIdle
            ? { tone: "success" as const, message: t("signIn.invited") }
            : null;
  const busy = signIn.isPending || signIn.isSuccess;

  if (secondStep) {
    return (
      <AuthCard platformName={platformName} title={t("mfa.stepTitle")}>
        <MfaStep
          step={secondStep}
          next={next}
          onBack={() => {
            signIn.reset();
            setStepDismissed(true);
          }}
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard platformName={platformName} title={t("signIn.title")} intro={t("signIn.subtitle")}>
      <form className={styles.form} onSubmit={submit} noValidate>
        <FormStatus status={status} banner />
        <TextField label={t("signIn.login")} name="login" autoComplete="username" autoCapitalize="none" spellCheck={false} required autoFocus />
        <div className={styles.group}>
          <TextField label={t("signIn.password")} name="password" type="password" autoComplete="current-password" required />
          <Link className={styles.aside} href="/login/forgot-password">
            {t("signIn.forgot")}
          </Link>
        </div>
        <Button type="submit" block disabled={busy}>
          {busy ? t("signIn.submitting") : t("signIn.submit")}
        </Button>
      </form>
      <SsoSignIn next={next} />
    </AuthCard>
  );
}
