"use client";

import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import { useT } from "@/lib/i18n/provider";
import { useAccount } from "@/lib/queries/account";
import { useSetLock } from "@/lib/queries/details";
import type { FileResponse } from "@/lib/queries/files";
import { describeFileError } from "../file-browser/format";
import styles from "./details.module.css";

/** Lock a file against others' changes, or release one's own lock; says who holds someone else's. */
export function LockToggle({ file }: { file: FileResponse }) {
  const t = useT();
  const toast = useToast();
  const account = useAccount();
  const setLock = useSetLock();
  const lock = file.lock?.locked ? file.lock : null;
  const mine = lock && account.data && lock.owner_id === String(account.data.id);
  if (lock && !mine)
    return (
      <p className={styles.lockNote} data-testid="lock-state">
        🔒 {t("details.lockedBy", { name: lock.owner ?? "" })}
      </p>
    );
  if (!file.can_edit && !lock) return null;
  const locked = Boolean(lock);
  return (
    <div className={styles.lockRow}>
      {locked && (
        <span className={styles.lockNote} data-testid="lock-state">
          🔒 {t("details.lockedByYou")}
        </span>
      )}
      <Button
        size="small"
        variant="secondary"
        aria-pressed={locked}
        disabled={setLock.isPending}
        onClick={() =>
          setLock.mutate(
            { fileId: file.id, locked: !locked },
            { onError: (e) => toast({ tone: "error", message: t("files.actionFailed", { reason: describeFileError(e, t) }) }) },
          )
        }
      >
        {locked ? t("details.unlock") : t("details.lock")}
      </Button>
    </div>
  );
}
