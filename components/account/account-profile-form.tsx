"use client";

import type { FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { TextField } from "@/components/ui/text-field";
import { useT } from "@/lib/i18n/provider";
import { useUpdateAccount, type Account } from "@/lib/queries/account";
import styles from "./account.module.css";
import { describeError, invalidFields } from "./describe-error";

const FIELDS = [
  { name: "firstname", label: "account.firstname", autoComplete: "given-name", type: "text" },
  { name: "lastname", label: "account.lastname", autoComplete: "family-name", type: "text" },
  { name: "email", label: "account.email", autoComplete: "email", type: "email", wide: true },
  { name: "phone", label: "account.phone", autoComplete: "tel", type: "tel" },
  { name: "organization", label: "account.organization", autoComplete: "organization", type: "text" },
] as const;

export function AccountProfileForm({ account, locked }: { account: Account; locked: string | null }) {
  const t = useT();
  const update = useUpdateAccount();
  const invalid = invalidFields(update.error);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = (name: string) => String(form.get(name) ?? "").trim();
    update.mutate({ firstname: value("firstname"), lastname: value("lastname"), email: value("email"), phone: value("phone"), organization: value("organization") });
  }

  const status: Status = update.isSuccess ? { tone: "success", message: t("common.saved") } : update.isError ? { tone: "error", message: describeError(update.error, t) } : null;

  return (
    <Card title={t("account.profile")} description={t("account.profileHelp")}>
      <form className={styles.form} onSubmit={submit} onChange={() => {
        if (!update.isIdle) update.reset();
      }} noValidate>
        {locked && <p className={styles.notice}>{locked}</p>}
        <div className={styles.grid}>
          {FIELDS.map((field) => (
            <TextField
              key={field.name}
              className={"wide" in field ? styles.wide : undefined}
              label={t(field.label)}
              name={field.name}
              type={field.type}
              autoComplete={field.autoComplete}
              defaultValue={account[field.name]}
              disabled={Boolean(locked)}
              error={invalid.has(field.name) ? t("common.invalidValue") : null}
            />
          ))}
        </div>
        {!locked && (
          <div className={styles.actions}>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? t("common.saving") : t("common.save")}
            </Button>
            <FormStatus status={status} />
          </div>
        )}
      </form>
    </Card>
  );
}
