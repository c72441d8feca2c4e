"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { TextField } from "@/components/ui/text-field";
import { useT } from "@/lib/i18n/provider";
import { useUpdateAccount, type Account, type AccountUpdate } from "@/lib/queries/account";
import { useMfaState } from "@/lib/queries/mfa";
import styles from "./account.module.css";
import { describeError, invalidFields } from "./describe-error";
import { ReauthDialog } from "./reauth-dialog";

const FIELDS = [
  { name: "firstname", label: "account.firstname", autoComplete: "given-name", type: "text" },
  { name: "lastname", label: "account.lastname", autoComplete: "family-name", type: "text" },
  { name: "email", label: "account.email", autoComplete: "email", type: "email", wide: true },
  { name: "phone", label: "account.phone", autoComplete: "tel", type: "tel" },
  { name: "organization", label: "account.organization", autoComplete: "organization", type: "text" },
] as const;

/** The profile; a new email is confirmed with the password first (api.md, "Account security"). */
export function AccountProfileForm({ account, locked }: { account: Account; locked: string | null }) {
  const t = useT();
  const update = useUpdateAccount();
  const mfa = useMfaState();
  const invalid = invalidFields(update.error);
  /** The changes waiting for the re-authentication a new email needs. */
  const [pending, setPending] = useState<AccountUpdate | null>(null);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = (name: string) => String(form.get(name) ?? "").trim();
    const changes = { firstname: value("firstname"), lastname: value("lastname"), email: value("email"), phone: value("phone"), organization: value("organization") };
    if (changes.email !== account.email) setPending(changes);
    else update.mutate(changes);
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
      {pending && (
        <ReauthDialog
          title={t("account.emailConfirmTitle", { email: pending.email ?? "" })}
          confirmLabel={t("common.save")}
          method={mfa.data?.reauth ?? "password"}
          // A refused field closes the dialog: the form marks it.
          onConfirm={(reauth) => update.mutateAsync({ ...pending, ...reauth }).catch((e) => (invalidFields(e).size ? undefined : Promise.reject(e)))}
          onClose={() => setPending(null)}
        />
      )}
    </Card>
  );
}
