"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormStatus } from "@/components/ui/form-status";
import { useT } from "@/lib/i18n/provider";
import { rootsQuery } from "@/lib/queries/files";
import { pdfPickerQuery } from "@/lib/queries/signatures";
import { describeSignatureError } from "./describe-error";
import styles from "./signatures.module.css";

type Level = { id: number | "company" | "shared" | "spaces"; name: string };

/**
 * A PDF chosen from the file browser's spaces, walking down one folder at a time (like the
 * folder picker of moves and copies), showing only folders and PDFs.
 */
export function DocumentPickerDialog({ onPick, onClose }: { onPick: (fileId: number) => Promise<unknown>; onClose: () => void }) {
  const t = useT();
  const roots = useQuery(rootsQuery());
  const privateRoot = roots.data?.find((r) => r.type === "private");
  const [trail, setTrail] = useState<Level[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const start: Level | undefined = privateRoot ? { id: privateRoot.id, name: t("nav.myFiles") } : undefined;
  const here = trail.at(-1) ?? start;
  const levelId = here?.id;
  const level = useQuery({ ...pdfPickerQuery(levelId === "spaces" || levelId === undefined ? 0 : levelId), enabled: levelId !== undefined && levelId !== "spaces" });
  const spaces: Level[] = [...(start ? [start] : []), { id: "company", name: t("nav.company") }, { id: "shared", name: t("nav.shared") }];
  const folders: Level[] = here?.id === "spaces" ? spaces : (level.data?.folders ?? []).map((f) => ({ id: f.id, name: f.name }));
  const files = here?.id === "spaces" ? [] : (level.data?.files ?? []);

  async function pick(fileId: number) {
    setPending(true);
    setError(null);
    try {
      await onPick(fileId);
      onClose();
    } catch (e) {
      setError(describeSignatureError(e, t));
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog
      title={t("signatures.picker.title")}
      closeLabel={t("common.close")}
      onClose={onClose}
      footer={
        <Button variant="secondary" onClick={onClose}>
          {t("common.cancel")}
        </Button>
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
        <ul className={styles.pickerList} aria-label={t("signatures.picker.label")} aria-busy={level.isFetching || pending}>
          {folders.length === 0 && files.length === 0 && !level.isLoading && <li className={styles.pickerEmpty}>{t("signatures.picker.empty")}</li>}
          {folders.map((folder) => (
            <li key={`folder:${folder.id}`}>
              <button type="button" className={styles.pickerItem} onClick={() => setTrail((path) => [...(here?.id === "spaces" ? [] : path), folder])}>
                <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" className={styles.folderIcon}>
                  <path d="M3 6.5A1.5 1.5 0 0 1 4.5 5h4.6l2 2h8.4A1.5 1.5 0 0 1 21 8.5v9a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5z" fill="currentColor" />
                </svg>
                {folder.name}
              </button>
            </li>
          ))}
          {files.map((file) => (
            <li key={`file:${file.id}`}>
              <button type="button" className={styles.pickerItem} disabled={pending} onClick={() => pick(file.id)} aria-label={t("signatures.picker.add", { name: file.name })}>
                <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" className={styles.fileIcon}>
                  <path d="M6 3h8l4 4v14H6zM14 3v4h4" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round" />
                </svg>
                {file.name}
              </button>
            </li>
          ))}
        </ul>
        <FormStatus status={error ? { tone: "error", message: error } : null} />
      </div>
    </Dialog>
  );
}
