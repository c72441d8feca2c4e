"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { FormStatus } from "@/components/ui/form-status";
import { useT } from "@/lib/i18n/provider";
import { folderTreeQuery, rootsQuery } from "@/lib/queries/files";
import styles from "./file-browser.module.css";
import { describeFileError } from "./format";

type Level = { id: number | "company" | "shared" | "spaces"; name: string };

type Props = {
  title: string;
  submitLabel: string;
  /** Folders that cannot be chosen nor entered (a folder being moved). */
  excluded?: ReadonlySet<number>;
  /** Does the work in the chosen folder; a rejection is shown in the dialog. */
  onPick: (folderId: number) => Promise<unknown>;
  pending: boolean;
  onDone: () => void;
  onClose: () => void;
};

/** A folder chosen by walking down the tree, one level at a time: for moves, copies and restores. */
export function FolderPickerDialog({ title, submitLabel, excluded, onPick, pending, onDone, onClose }: Props) {
  const t = useT();
  const roots = useQuery(rootsQuery());
  const privateRoot = roots.data?.find((r) => r.type === "private");
  const [trail, setTrail] = useState<Level[]>([]);
  const [error, setError] = useState<string | null>(null);

  const start: Level | undefined = privateRoot ? { id: privateRoot.id, name: t("nav.myFiles") } : undefined;
  const here = trail.at(-1) ?? start;
  const levelId = here?.id;
  const children = useQuery({ ...folderTreeQuery(levelId === "spaces" || levelId === undefined ? 0 : levelId), enabled: levelId !== undefined && levelId !== "spaces" });
  const canDrop = typeof here?.id === "number" && here.id > 0;

  const spaces: Level[] = [...(start ? [start] : []), { id: "company", name: t("nav.company") }, { id: "shared", name: t("nav.shared") }];
  const list: Level[] = here?.id === "spaces" ? spaces : (children.data ?? []).filter((f) => !excluded?.has(f.id)).map((f) => ({ id: f.id, name: f.name }));

  function submit() {
    if (!canDrop) return;
    onPick(here!.id as number).then(onDone, (e) => setError(describeFileError(e, t)));
  }

  return (
    <Dialog
      title={title}
      closeLabel={t("common.close")}
      onClose={onClose}
      onSubmit={submit}
      footer={
        <DialogActions
          cancelLabel={t("common.cancel")}
          onCancel={onClose}
          submitLabel={submitLabel}
          disabled={!canDrop || pending}
        />
      }
    >
      <div className={styles.picker}>
        <div className={styles.pickerHead}>
          <Button
            variant="ghost"
            size="small"
            data-autofocus
            disabled={here?.id === "spaces"}
            onClick={() => setTrail((path) => (path.length > 0 ? path.slice(0, -1) : [{ id: "spaces", name: t("files.pickerSpaces") }]))}
          >
            ← {t("files.pickerUp")}
          </Button>
          <strong>{t("files.pickerCurrent", { name: here?.name ?? "…" })}</strong>
        </div>
        <ul className={styles.pickerList} aria-label={t("files.pickerLabel")}>
          {list.length === 0 && !children.isLoading && <li className={styles.pickerEmpty}>{t("files.pickerEmpty")}</li>}
          {list.map((folder) => (
            <li key={String(folder.id)}>
              <button type="button" className={styles.pickerItem} onClick={() => setTrail((path) => [...(here?.id === "spaces" ? [] : path), folder])}>
                <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" className={styles.folderIcon}>
                  <path d="M3 6.5A1.5 1.5 0 0 1 4.5 5h4.6l2 2h8.4A1.5 1.5 0 0 1 21 8.5v9a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5z" fill="currentColor" />
                </svg>
                {folder.name}
              </button>
            </li>
          ))}
        </ul>
        <FormStatus status={error ? { tone: "error", message: error } : null} />
      </div>
    </Dialog>
  );
}
