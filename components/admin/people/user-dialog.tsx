"use client";

import { useState } from "react";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { FormStatus } from "@/components/ui/form-status";
import { Select } from "@/components/ui/select";
import { TextField } from "@/components/ui/text-field";
import { ApiError } from "@/lib/api-client";
import { useT } from "@/lib/i18n/provider";
import { useCreateUser, useUpdateUser, type AdminUser, type UserInput } from "@/lib/queries/admin-people";
import styles from "./people.module.css";
import { describePeopleError, QuotaField, ROLE_KEYS } from "./shared";
import { UserIdentity } from "./user-identity";

const GB = 1024 ** 3;

type Props = {
  /** Absent: a new user. */
  user?: AdminUser;
  /** The groups the signed-in person may put users in (all of them, or a manager's). */
  groups: { id: string; login: string }[];
  /** Managers give only the roles external user and user. */
  isManager: boolean;
  onClose: () => void;
  onDone: (user: AdminUser) => void;
};

/** "2026-12-31" for a date input, from the API's ISO date. */
const toDay = (iso: string | null) => (iso ? iso.slice(0, 10) : "");

/** Create or edit a user: identity, role, groups, quota, expiry (and on creation the first password). */
export function UserDialog({ user, groups, isManager, onClose, onDone }: Props) {
  const t = useT();
  const create = useCreateUser();
  const update = useUpdateUser();
  const [login, setLogin] = useState(user?.login ?? "");
  const [firstname, setFirstname] = useState(user?.firstname ?? "");
  const [lastname, setLastname] = useState(user?.lastname ?? "");
  const [email, setEmail] = useState(user?.email ?? "");
  const [role, setRole] = useState(String(user?.role ?? 2));
  const [memberOf, setMemberOf] = useState<Set<string>>(new Set(user?.groups.map((g) => g.id) ?? []));
  const initialQuota = user?.quota != null ? String(+(user.quota / GB).toFixed(3)) : "";
  const [quota, setQuota] = useState(initialQuota);
  const [expire, setExpire] = useState(toDay(user?.expire ?? null));
  const [password, setPassword] = useState("");
  const [alert, setAlert] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Set<string>>(new Set());
  const busy = create.isPending || update.isPending;
  const directory = user?.ldap ?? false;

  const roles = ([1, 2, 3, 4] as const).filter((r) => !isManager || r === 1 || r === 2 || (user && r === user.role));
  // A group a manager does not manage still shows (checked and fixed) so saving keeps it.
  const choices = [...groups, ...(user?.groups.filter((g) => !groups.some((c) => c.id === g.id)) ?? [])];

  async function submit() {
    setError(null);
    const missing = new Set<string>();
    if (!user && !login.trim()) missing.add("login");
    if (!user && !password) missing.add("password");
    const quotaNumber = quota.trim() === "" ? null : Number(quota.replace(",", "."));
    if (quotaNumber !== null && !(Number.isFinite(quotaNumber) && quotaNumber >= 0)) missing.add("quota");
    setFieldErrors(missing);
    if (missing.size) {
      setError(t("error.invalid"));
      return;
    }
    const input: UserInput = { groups: [...memberOf] };
    // An edit sends what changed only: a quota or date shown rounded must not be written back rounded.
    if (!user || quota !== initialQuota) input.quota = quotaNumber === null ? null : Math.round(quotaNumber * GB);
    // The end of the chosen day, in the browser's time zone.
    if (!user || expire !== toDay(user.expire)) input.expire = expire ? new Date(`${expire}T23:59:59`).toISOString() : null;
    if (!user || Number(role) !== user.role) input.role = Number(role) as UserInput["role"];
    if (!directory) Object.assign(input, { firstname: firstname.trim(), lastname: lastname.trim(), email: email.trim() });
    try {
      const saved = user
        ? await update.mutateAsync({ id: user.id, input })
        : await create.mutateAsync({ input: { ...input, login: login.trim(), password }, alert });
      onDone(saved);
    } catch (e) {
      setFieldErrors(new Set(e instanceof ApiError ? e.fields : []));
      setError(describePeopleError(e, t));
    }
  }

  const invalid = (field: string) => (fieldErrors.has(field) ? t("common.invalidValue") : null);

  return (
    <Dialog
      title={user ? t("adminPeople.users.editTitle", { name: user.login }) : t("adminPeople.users.createTitle")}
      closeLabel={t("common.close")}
      onClose={onClose}
      onSubmit={submit}
      footer={<DialogActions cancelLabel={t("common.cancel")} onCancel={onClose} submitLabel={busy ? t("common.saving") : user ? t("common.save") : t("adminPeople.users.create")} disabled={busy} />}
    >
      {directory && <p className={styles.note}>{t("adminPeople.users.directory")}</p>}
      <div className={styles.grid}>
        {!user && <TextField label={t("adminPeople.users.login")} value={login} onChange={(e) => setLogin(e.target.value)} required autoComplete="off" error={invalid("login")} />}
        <TextField label={t("adminPeople.users.firstname")} value={firstname} onChange={(e) => setFirstname(e.target.value)} disabled={directory} autoComplete="off" />
        <TextField label={t("adminPeople.users.lastname")} value={lastname} onChange={(e) => setLastname(e.target.value)} disabled={directory} autoComplete="off" />
        <TextField label={t("adminPeople.users.email")} type="email" value={email} onChange={(e) => setEmail(e.target.value)} disabled={directory} autoComplete="off" error={invalid("email")} />
        <Select
          label={t("adminPeople.users.role")}
          value={role}
          onChange={(e) => setRole(e.target.value)}
          disabled={directory}
          hint={isManager ? t("adminPeople.users.managerRoles") : undefined}
          options={roles.map((r) => ({ value: String(r), label: t(ROLE_KEYS[r]) }))}
        />
        <QuotaField value={quota} onChange={setQuota} disabled={directory} error={invalid("quota")} />
        <TextField label={t("adminPeople.users.expire")} hint={t("adminPeople.users.expireHint")} type="date" value={expire} onChange={(e) => setExpire(e.target.value)} disabled={directory} error={invalid("expire")} />
      </div>
      <fieldset className={styles.fieldset}>
        <legend className={styles.legend}>{t("adminPeople.users.groups")}</legend>
        {choices.length === 0 ? (
          <p className={styles.hint}>{t("adminPeople.users.noGroups")}</p>
        ) : (
          <div className={styles.checks}>
            {choices.map((g) => {
              const fixed = isManager && !groups.some((c) => c.id === g.id);
              return (
                <label key={g.id} className={styles.check}>
                  <input
                    type="checkbox"
                    checked={memberOf.has(g.id)}
                    disabled={fixed}
                    onChange={(e) => {
                      const next = new Set(memberOf);
                      if (e.target.checked) next.add(g.id);
                      else next.delete(g.id);
                      setMemberOf(next);
                    }}
                  />
                  {g.login}
                </label>
              );
            })}
          </div>
        )}
      </fieldset>
      {user && !isManager && <UserIdentity userId={user.id} />}
      {!user && (
        <div className={styles.grid}>
          <TextField
            label={t("adminPeople.users.password")}
            hint={t("adminPeople.users.passwordHint")}
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
            error={invalid("password")}
          />
          <label className={styles.check}>
            <input type="checkbox" checked={alert} onChange={(e) => setAlert(e.target.checked)} />
            {t("adminPeople.users.mailPassword")}
          </label>
        </div>
      )}
      <FormStatus status={error ? { tone: "error", message: error } : null} />
    </Dialog>
  );
}
