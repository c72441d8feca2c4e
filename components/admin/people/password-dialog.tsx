"use client";

import { useState } from "react";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { FormStatus } from "@/components/ui/form-status";
import { TextField } from "@/components/ui/text-field";
import { useT } from "@/lib/i18n/provider";
import { useMailPasswordReset, useUpdateUser, type AdminUser } from "@/lib/queries/admin-people";
import styles from "./people.module.css";
import { describePeopleError } from "./shared";

/**
 * What the API offers to reset a password: set a new one (optionally mailed to the user with
 * `alert`; the user's sessions end), or mail them a one-use reset link.
 */
export function PasswordDialog({ user, onClose, onDone }: { user: AdminUser; onClose: () => void; onDone: (message: string) => void }) {
  const t = useT();
  const update = useUpdateUser();
  const mailReset = useMailPasswordReset();
  const [mode, setMode] = useState<"set" | "mail">("set");
  const [password, setPassword] = useState("");
  const [alert, setAlert] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const busy = update.isPending || mailReset.isPending;
  const name = `${user.firstname} ${user.lastname}`.trim() || user.login;

  async function submit() {
    setError(null);
    try {
      if (mode === "mail") {
        await mailReset.mutateAsync(user.login);
        onDone(t("adminPeople.password.mailed", { name }));
        return;
      }
      if (!password) {
        setError(t("common.required"));
        return;
      }
      await update.mutateAsync({ id: user.id, input: { password }, alert: alert && Boolean(user.email) });
      onDone(t("adminPeople.password.changed", { name }));
    } catch (e) {
      setError(describePeopleError(e, t));
    }
  }

  return (
    <Dialog
      title={t("adminPeople.password.title", { name })}
      closeLabel={t("common.close")}
      onClose={onClose}
      onSubmit={submit}
      footer={<DialogActions cancelLabel={t("common.cancel")} onCancel={onClose} submitLabel={busy ? t("common.saving") : t("adminPeople.password.submit")} disabled={busy} />}
    >
      <fieldset className={styles.fieldset}>
        <legend className={styles.legend}>{t("adminPeople.password.how")}</legend>
        <label className={styles.check}>
          <input type="radio" name="password-mode" checked={mode === "set"} onChange={() => setMode("set")} />
          {t("adminPeople.password.set")}
        </label>
        <label className={styles.check}>
          <input type="radio" name="password-mode" checked={mode === "mail"} onChange={() => setMode("mail")} disabled={!user.email} />
          {user.email ? t("adminPeople.password.mail", { email: user.email }) : t("adminPeople.password.noEmail")}
        </label>
      </fieldset>
      {mode === "set" && (
        <>
          <TextField label={t("adminPeople.password.new")} type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
          {user.email && (
            <label className={styles.check}>
              <input type="checkbox" checked={alert} onChange={(e) => setAlert(e.target.checked)} />
              {t("adminPeople.password.mailIt")}
            </label>
          )}
          <p className={styles.hint}>{t("adminPeople.password.sessionsEnd")}</p>
        </>
      )}
      <FormStatus status={error ? { tone: "error", message: error } : null} />
    </Dialog>
  );
}
