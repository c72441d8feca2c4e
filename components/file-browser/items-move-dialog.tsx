"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { FormStatus } from "@/components/ui/form-status";
import { useT } from "@/lib/i18n/provider";
import { folderTreeQuery, rootsQuery, useCopyItems, useMoveItems, type Item } from "@/lib/queries/files";
import styles from "./file-browser.module.css";
import { describeFileError, itemKey } from "./format";

type Level = { id: number | "company" | "shared" | "spaces"; name: string };

/** Moves or copies items into a folder chosen by walking down the tree, one level at a time. */
export function ItemsMoveDialog({ items, mode, onDone, onClose }: { items: Item[]; mode: "move" | "copy"; onDone: () => void; onClose: () => void }) {
  const t = useT();
  const roots = useQuery(rootsQuery());
  const privateRoot = roots.data?.find((r) => r.type === "private");
  const [trail, setTrail] = useState<Level[]>([]);
  const [error, setError] = useState<string | null>(null);
  const move = useMoveItems();
  const copy = useCopyItems();
  const mutation = mode === "move" ? move : copy;

  const start: Level | undefined = privateRoot ? { id: privateRoot.id, name: t("nav.myFiles") } : undefined;
  const here = trail.at(-1) ?? start;
  const levelId = here?.id;
  const children = useQuery({ ...folderTreeQuery(levelId === "spaces" || levelId === undefined ? 0 : levelId), enabled: levelId !== undefined && levelId !== "spaces" });
  const moving = new Set(items.filter((i) => i.kind === "folder").map(itemKey));
  const canDrop = typeof here?.id === "number" && here.id > 0;

  const spaces: Level[] = [...(start ? [start] : []), { id: "company", name: t("nav.company") }, { id: "shared", name: t("nav.shared") }];
  const list: Level[] = here?.id === "spaces" ? spaces : (children.data ?? []).filter((f) => !moving.has(itemKey({ kind: "folder", id: f.id }))).map((f) => ({ id: f.id, name: f.name }));

  function submit() {
    if (!canDrop) return;
    mutation.mutate({ items, parentId: here!.id as number }, { onSuccess: onDone, onError: (e) => setError(describeFileError(e, t)) });
  }

  return (
    <Dialog
      title={t(mode === "move" ? "files.moveTitle" : "files.copyTitle", { count: items.length })}
      closeLabel={t("common.close")}
      onClose={onClose}
      onSubmit={submit}
      footer={
        <DialogActions
          cancelLabel={t("common.cancel")}
          onCancel={onClose}
          submitLabel={t(mode === "move" ? "files.moveHere" : "files.copyHere")}
          disabled={!canDrop || mutation.isPending}
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
