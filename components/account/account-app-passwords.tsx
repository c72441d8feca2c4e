"use client";

import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { formatDate } from "@/components/file-browser/format";
import { CopyField } from "@/components/sharing/copy-field";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { TextField } from "@/components/ui/text-field";
import { APP_PASSWORD_NAME_MAX } from "@/lib/contracts/account-security";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { appPasswordsQuery, useCreateAppPassword, useRevokeAppPassword, type AppPasswordItem, type CreatedAppPassword } from "@/lib/queries/account-security";
import { useMfaState } from "@/lib/queries/mfa";
import { describeError } from "./describe-error";
import { ReauthDialog } from "./reauth-dialog";
import styles from "./account-applications.module.css";

/**
 * App passwords (api.md, "Account security"): a name, confirmed by the password (or a code), then
 * the password shown once to copy into a WebDAV client; the list, each revocable.
 */
export function AccountAppPasswords() {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const list = useQuery(appPasswordsQuery());
  const { data: mfa } = useMfaState();
  const create = useCreateAppPassword();
  const revoke = useRevokeAppPassword();
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [created, setCreated] = useState<CreatedAppPassword | null>(null);
  const [status, setStatus] = useState<Status>(null);

  function start(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setNameError(t("accountSecurity.appPasswords.nameMissing"));
    setNameError(null);
    setStatus(null);
    setConfirming(true);
  }

  const end = (item: AppPasswordItem) =>
    revoke.mutate(item.id, {
      onSuccess: () => setStatus({ tone: "success", message: t("accountSecurity.appPasswords.revoked", { name: item.name }) }),
      onError: (error) => setStatus({ tone: "error", message: describeError(error, t) }),
    });

  const items = list.data?.objects ?? [];
  return (
    <Card title={t("accountSecurity.appPasswords.title")} description={t("accountSecurity.appPasswords.subtitle")}>
      {created ? (
        <div data-testid="app-password-created" className={styles.what}>
          <p>
            <strong>{created.name}</strong>
          </p>
          <p role="status">{t("accountSecurity.appPasswords.shownOnce")}</p>
          <CopyField label={t("accountSecurity.appPasswords.password")} value={created.password} />
          <div>
            <Button size="small" onClick={() => setCreated(null)}>
              {t("accountSecurity.appPasswords.done")}
            </Button>
          </div>
        </div>
      ) : (
        <form className={styles.createRow} onSubmit={start} noValidate>
          <TextField
            label={t("accountSecurity.appPasswords.name")}
            name="app-password-name"
            maxLength={APP_PASSWORD_NAME_MAX}
            value={name}
            error={nameError ?? undefined}
            onChange={(e) => setName(e.target.value)}
          />
          <Button type="submit" disabled={!mfa}>
            {t("accountSecurity.appPasswords.create")}
          </Button>
        </form>
      )}
      {list.isError && <p role="alert">{describeError(list.error, t)}</p>}
      {list.isSuccess && items.length === 0 && <p className="muted">{t("accountSecurity.appPasswords.none")}</p>}
      {items.length > 0 && (
        <ul className={styles.list} aria-label={t("accountSecurity.appPasswords.title")} data-testid="app-passwords">
          {items.map((item) => (
            <li key={item.id} className={styles.item}>
              <div className={styles.what}>
                <p className={styles.name}>
                  <strong>{item.name}</strong>
                </p>
                <p className={`muted ${styles.dates}`}>
                  {t("accountSecurity.appPasswords.created", { date: formatDate(item.created_at, locale) })}
                  {" · "}
                  {item.last_seen_at ? t("accountSecurity.sessions.lastSeen", { date: formatDate(item.last_seen_at, locale) }) : t("accountSecurity.appPasswords.neverUsed")}
                </p>
              </div>
              <Button variant="danger" size="small" aria-label={t("accountSecurity.appPasswords.revokeNamed", { name: item.name })} disabled={revoke.isPending} onClick={() => end(item)}>
                {t("accountSecurity.appPasswords.revoke")}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <FormStatus status={status} />
      {confirming && mfa && (
        <ReauthDialog
          title={t("accountSecurity.appPasswords.create")}
          confirmLabel={t("accountSecurity.appPasswords.create")}
          method={mfa.reauth}
          onConfirm={async (reauth) => {
            setCreated(await create.mutateAsync({ name: name.trim(), ...reauth }));
            setName("");
          }}
          onClose={() => setConfirming(false)}
        />
      )}
    </Card>
  );
}
