"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { TextField } from "@/components/ui/text-field";
import { ApiError } from "@/lib/api-client";
import { useT } from "@/lib/i18n/provider";
import type { Translate } from "@/lib/i18n/translate";
import { useRequestPasswordReset } from "@/lib/queries/session";
import { AuthCard, authStyles as styles } from "./auth-card";

function describe(error: unknown, t: Translate): string {
  if (!(error instanceof ApiError)) return t("error.generic");
  if (error.status === 0) return t("error.network");
  if (error.status === 429) return t("error.tooMany", { seconds: error.retryAfter ?? 60 });
  return t("error.generic");
}

export function ForgotPasswordScreen({ platformName }: { platformName: string }) {
  const t = useT();
  const reset = useRequestPasswordReset();
  const [missing, setMissing] = useState(false);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get("login_or_email") ?? "").trim();
    setMissing(!value);
    if (value) reset.mutate(value);
  }

  const status: Status = reset.isSuccess
    ? { tone: "success", message: t("forgot.sent") }
    : reset.isError
      ? { tone: "error", message: describe(reset.error, t) }
      : null;

  return (
    <AuthCard platformName={platformName} title={t("forgot.title")} intro={t("forgot.intro")} footer={<Link href="/login">{t("forgot.back")}</Link>}>
      <form className={styles.form} onSubmit={submit} noValidate>
        <FormStatus status={status} banner />
        {!reset.isSuccess && (
          <>
            <TextField
              label={t("forgot.field")}
              name="login_or_email"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              required
              autoFocus
              error={missing ? t("common.required") : null}
            />
            <Button type="submit" block disabled={reset.isPending}>
              {reset.isPending ? t("forgot.submitting") : t("forgot.submit")}
            </Button>
          </>
        )}
      </form>
    </AuthCard>
  );
}
