"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { TextField } from "@/components/ui/text-field";
import { ApiError } from "@/lib/api-client";
import { useT } from "@/lib/i18n/provider";
import { useResetPassword } from "@/lib/queries/session";
import { AuthCard, authStyles as styles } from "./auth-card";

export function ResetPasswordScreen({ platformName, token, minLength }: { platformName: string; token: string; minLength: number }) {
  const t = useT();
  const reset = useResetPassword(token);
  const [mismatch, setMismatch] = useState(false);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get("password") ?? "");
    const confirm = String(form.get("confirm") ?? "");
    setMismatch(password !== confirm);
    if (password && password === confirm) reset.mutate(password);
  }

  const error = reset.error instanceof ApiError ? reset.error : null;
  const invalidLink = error?.status === 404;
  const weak = error?.code === "weak_password";

  if (reset.isSuccess || invalidLink) {
    return (
      <AuthCard platformName={platformName} title={t("reset.title")}>
        <FormStatus status={{ tone: invalidLink ? "error" : "success", message: invalidLink ? t("reset.invalidLink") : t("reset.done") }} banner />
        {invalidLink ? (
          <Link href="/login/forgot-password">{t("reset.requestNew")}</Link>
        ) : (
          <Link href="/login">{t("reset.signIn")}</Link>
        )}
      </AuthCard>
    );
  }

  const status: Status =
    reset.isError && !weak ? { tone: "error", message: error?.status === 0 ? t("error.network") : t("error.generic") } : null;

  return (
    <AuthCard platformName={platformName} title={t("reset.title")} intro={t("reset.intro")} footer={<Link href="/login">{t("forgot.back")}</Link>}>
      <form className={styles.form} onSubmit={submit} noValidate>
        <FormStatus status={status} banner />
        <TextField
          label={t("password.new")}
          name="password"
          type="password"
          autoComplete="new-password"
          required
          autoFocus
          minLength={minLength}
          hint={t("password.hint", { min: minLength })}
          error={weak ? t("password.weak", { min: minLength }) : null}
        />
        <TextField
          label={t("password.confirm")}
          name="confirm"
          type="password"
          autoComplete="new-password"
          required
          error={mismatch ? t("password.mismatch") : null}
        />
        <Button type="submit" block disabled={reset.isPending}>
          {reset.isPending ? t("common.saving") : t("reset.submit")}
        </Button>
      </form>
    </AuthCard>
  );
}
