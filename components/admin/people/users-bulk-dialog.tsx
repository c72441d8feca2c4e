"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { FormStatus } from "@/components/ui/form-status";
import { Select } from "@/components/ui/select";
import { useT } from "@/lib/i18n/provider";
import { displayName } from "@/lib/queries/account";
import { useBulkUpdateUsers, type AdminUser, type BulkOutcome, type UserInput } from "@/lib/queries/admin-people";
import styles from "./people.module.css";
import { describePeopleError, QuotaField } from "./shared";

export type BulkAction = "deactivate" | "group" | "quota";

const GB = 1024 ** 3;

type Props = {
  action: BulkAction;
  users: AdminUser[];
  /** The caller, never deactivated by a bulk action (the row menu does not offer it either). */
  meId: string | undefined;
  groups: { id: string; login: string }[];
  onClose: () => void;
  /** After the run: the users it failed for, so the screen keeps them selected. */
  onDone: (failed: AdminUser[]) => void;
};

/**
 * Deactivate, add to a group or set a quota for the selected users: one update per user, each
 * judged by the server on its own (a manager's refusals included), then a summary of what was
 * done and what was refused, by name and reason.
 */
export function UsersBulkDialog({ action, users, meId, groups, onClose, onDone }: Props) {
  const t = useT();
  const bulk = useBulkUpdateUsers();
  const [groupId, setGroupId] = useState(groups[0]?.id ?? "");
  const [quota, setQuota] = useState("");
  const [invalid, setInvalid] = useState(false);
  const [done, setDone] = useState(0);
  const [outcomes, setOutcomes] = useState<(BulkOutcome & { skipped?: boolean })[] | null>(null);
  const count = users.length;

  async function submit() {
    if (outcomes) return close();
    let input: (user: AdminUser) => UserInput;
    if (action === "deactivate") input = () => ({ active: false });
    else if (action === "group") {
      if (!groupId) return;
      input = (user) => ({ groups: [...new Set([...user.groups.map((g) => g.id), groupId])] });
    } else {
      const value = quota.trim() === "" ? null : Number(quota.replace(",", "."));
      if (value !== null && !(Number.isFinite(value) && value >= 0)) {
        setInvalid(true);
        return;
      }
      input = () => ({ quota: value === null ? null : Math.round(value * GB) });
    }
    setInvalid(false);
    // One's own account is left out of a deactivation: it would end the session doing it.
    const skipped = action === "deactivate" ? users.filter((u) => u.id === meId) : [];
    const targets = users.filter((u) => !skipped.includes(u));
    const result = await bulk.mutateAsync({ users: targets, input, onProgress: setDone });
    setOutcomes([...result, ...skipped.map((user) => ({ user, error: null, skipped: true }))]);
  }

  function close() {
    if (outcomes) onDone(outcomes.filter((o) => o.error !== null || o.skipped).map((o) => o.user));
    else onClose();
  }

  const succeeded = outcomes?.filter((o) => o.error === null && !o.skipped).length ?? 0;
  const failures = outcomes?.filter((o) => o.error !== null || o.skipped) ?? [];
  const title = t(`adminPeople.users.bulk.${action}Title`, { count });
  const submitLabel = t(`adminPeople.users.bulk.${action}Submit`, { count });

  return (
    <Dialog
      title={title}
      closeLabel={t("common.close")}
      onClose={close}
      onSubmit={() => void submit()}
      footer={
        outcomes ? (
          <Button type="submit">{t("common.close")}</Button>
        ) : (
          <DialogActions cancelLabel={t("common.cancel")} onCancel={onClose} submitLabel={bulk.isPending ? t("adminPeople.users.bulk.progress", { done, count }) : submitLabel} disabled={bulk.isPending || (action === "group" && !groupId)} danger={action === "deactivate"} />
        )
      }
    >
      {outcomes ? (
        <div className={styles.summary} data-testid="bulk-summary">
          <p role="status" className={failures.length ? styles.summaryMixed : styles.summaryOk}>
            {t("adminPeople.users.bulk.summary", { done: succeeded, count })}
          </p>
          {failures.length > 0 && (
            <>
              <p className={styles.hint}>{t("adminPeople.users.bulk.failedIntro", { failed: failures.length })}</p>
              <ul className={styles.failures}>
                {failures.map((o) => (
                  <li key={o.user.id}>
                    <span className={styles.strong}>{displayName(o.user)}</span>
                    <span className={styles.sub}>{o.skipped ? t("adminPeople.users.bulk.selfSkipped") : describePeopleError(o.error, t)}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      ) : (
        <>
          <p>{t(`adminPeople.users.bulk.${action}Text`, { count })}</p>
          <ul className={styles.selectedNames} aria-label={t("adminPeople.users.bulk.selectedList")}>
            {users.map((u) => (
              <li key={u.id} className={styles.badge}>
                {displayName(u)}
              </li>
            ))}
          </ul>
          {action === "group" &&
            (groups.length ? (
              <Select label={t("adminPeople.users.bulk.groupLabel")} value={groupId} onChange={(e) => setGroupId(e.target.value)} options={groups.map((g) => ({ value: g.id, label: g.login }))} />
            ) : (
              <FormStatus status={{ tone: "error", message: t("adminPeople.users.bulk.noGroup") }} />
            ))}
          {action === "quota" && (
            <QuotaField value={quota} onChange={setQuota} error={invalid ? t("common.invalidValue") : null} />
          )}
        </>
      )}
    </Dialog>
  );
}
