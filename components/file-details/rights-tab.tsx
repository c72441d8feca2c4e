"use client";

import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { AddPeople } from "@/components/sharing/share-people";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import { useT } from "@/lib/i18n/provider";
import type { MessageKey } from "@/lib/i18n/translate";
import { rightsQuery, useRemoveRight, useUpdateRight, type RightFlags, type RightResponse } from "@/lib/queries/details";
import type { Item } from "@/lib/queries/files";
import { describeFileError } from "../file-browser/format";
import styles from "./details.module.css";

const FLAG_LABELS: Record<keyof RightFlags, MessageKey> = {
  browse: "details.right.browse",
  read: "details.right.read",
  download: "details.right.download",
  write: "details.right.write",
  edit: "details.right.edit",
  delete: "details.right.delete",
  share: "details.right.share",
};
const FLAGS = Object.keys(FLAG_LABELS) as (keyof RightFlags)[];

/** Who may do what in a folder: one row per user or group, a switch per right, applied below with "subfolders too". */
export function RightsTab({ folder }: { folder: Item & { kind: "folder" } }) {
  const folderId = folder.id;
  const t = useT();
  const toast = useToast();
  const rights = useQuery(rightsQuery(folderId));
  const update = useUpdateRight();
  const removeRight = useRemoveRight();
  const [recursive, setRecursive] = useState(true);
  const recursiveId = useId();
  const failed = (e: unknown) => toast({ tone: "error", message: t("files.actionFailed", { reason: describeFileError(e, t) }) });

  if (rights.isPending) return <p className={styles.muted}>{t("common.loading")}</p>;
  if (rights.isError) return <p role="alert">{t("error.generic")}</p>;
  return (
    <div className={styles.rights}>
      <AddPeople item={folder} recursive={recursive} />
      <label className={styles.check} htmlFor={recursiveId}>
        <input id={recursiveId} type="checkbox" checked={recursive} onChange={(e) => setRecursive(e.target.checked)} />
        {t("details.rightsRecursive")}
      </label>
      {rights.data.length === 0 && <p className={styles.muted}>{t("details.noRights")}</p>}
      <ul className={styles.list} aria-label={t("details.rights")}>
        {rights.data.map((right) => (
          <li key={right.id} className={styles.rightRow} data-testid="right-row">
            <div className={styles.rowMain}>
              <strong>{right.target}</strong>
              {right.target_isgroup && <span className={styles.badge}>{t("details.group")}</span>}
            </div>
            <div role="group" aria-label={t("details.rightsOf", { name: right.target })} className={styles.flags}>
              {FLAGS.map((flag) => (
                <FlagSwitch key={flag} right={right} flag={flag} onChange={(value) => update.mutate({ rightId: right.id, flags: { [flag]: value }, recursive }, { onError: failed })} />
              ))}
            </div>
            <Button size="small" variant="ghost" onClick={() => removeRight.mutate({ rightId: right.id, recursive }, { onError: failed })} aria-label={t("details.removeRight", { name: right.target })}>
              {t("details.remove")}
            </Button>
          </li>
        ))}
      </ul>
    </div>
  );
}

function FlagSwitch({ right, flag, onChange }: { right: RightResponse; flag: keyof RightFlags; onChange: (value: boolean) => void }) {
  const t = useT();
  const id = useId();
  return (
    <label htmlFor={id} className={styles.flag}>
      <input id={id} type="checkbox" checked={right[flag]} onChange={(e) => onChange(e.target.checked)} />
      {t(FLAG_LABELS[flag])}
    </label>
  );
}
