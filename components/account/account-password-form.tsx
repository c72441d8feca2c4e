"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { TextField } from "@/components/ui/text-field";
import { ApiError } from "@/lib/api-client";
import { useT } from "@/lib/i18n/provider";
import { useChangePassword } from "@/lib/queries/account";
import styles from "./account.module.css";
import { describeError } from "./describe-error";

export function AccountPasswordForm({ minLength }: { minLength: number }) {
  const t = useT();
  const change = useChangePassword();
  const [mismatch, setMismatch] = useState(false);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const oldPassword = String(form.get("old_password") ?? "");
    const newPassword = String(form.get("new_password") ?? "");
    const differs = newPassword !== String(form.get("confirm") ?? "");
    setMismatch(differs);
    if (differs || !oldPassword || !newPassword) return;
    change.mutate({ old_password: oldPassword, new_password: newPassword }, { onSuccess: () => formElement.reset() });
  }

  const error = change.error instanceof ApiError ? change.error : null;
  const weak = error?.code === "weak_password";
  // The account API answers a wrong current password with a 403 other than weak_password.
  const wrongOld = error?.status === 403 && !weak;
  const status: Status = change.isSuccess
    ? { tone: "success", message: t("account.passwordChanged") }
    : change.isError && !weak && !wrongOld
      ? { tone: "error", message: describeError(change.error, t) }
      : null;

  return (
    <Card title={t("account.password")} description={t("account.passwordHelp")}>
      <form
        className={styles.form}
        onSubmit={submit}
        onChange={() => {
          if (!change.isIdle) change.reset();
          setMismatch(false);
        }}
        noValidate
      >
        <div className={styles.grid}>
          <TextField
            className={styles.wide}
            label={t("account.oldPassword")}
            name="old_password"
            type="password"
            autoComplete="current-password"
            required
            error={wrongOld ? t("account.wrongOldPassword") : null}
          />
          <TextField
            label={t("password.new")}
            name="new_password"
            type="password"
            autoComplete="new-password"
            required
            hint={weak ? undefined : t("password.hint", { min: minLength })}
            error={weak ? t("password.weak", { min: minLength }) : null}
          />
          <TextField label={t("password.confirm")} name="confirm" type="password" autoComplete="new-password" required error={mismatch ? t("password.mismatch") : null} />
        </div>
        <div className={styles.actions}>
          <Button type="submit" disabled={change.isPending}>
            {change.isPending ? t("common.saving") : t("account.changePassword")}
          </Button>
          <FormStatus status={status} />
        </div>
      </form>
    </Card>
  );
}
