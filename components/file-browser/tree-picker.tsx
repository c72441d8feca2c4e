"use client";

import { useQuery } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { FormStatus } from "@/components/ui/form-status";
import { useT } from "@/lib/i18n/provider";
import { rootsQuery } from "@/lib/queries/files";
import styles from "./tree-picker.module.css";

/** A level of the walk: a folder, a space, or "spaces" (the list of spaces above the roots). */
export type Level = { id: number | "company" | "shared" | "spaces"; name: string };

/**
 * Where a tree picker stands: it starts in the caller's own space and walks down one folder at a
 * time; going up from a root lists the spaces. `folderId` is the level to list (null: the spaces).
 */
export function usePickerTrail() {
  const t = useT();
  const roots = useQuery(rootsQuery());
  const privateRoot = roots.data?.find((r) => r.type === "private");
  const [trail, setTrail] = useState<Level[]>([]);
  const start: Level | undefined = privateRoot ? { id: privateRoot.id, name: t("nav.myFiles") } : undefined;
  const here = trail.at(-1) ?? start;
  const atSpaces = here?.id === "spaces";
  const spaces: Level[] = [...(start ? [start] : []), { id: "company", name: t("nav.company") }, { id: "shared", name: t("nav.shared") }];
  return {
    here,
    atSpaces,
    spaces,
    /** What the level's query asks for (0 while there is none), and whether to ask. */
    folderId: here === undefined || atSpaces ? 0 : (here.id as number | "company" | "shared"),
    hasFolder: here !== undefined && !atSpaces,
    up: () => setTrail((path) => (path.length > 0 ? path.slice(0, -1) : [{ id: "spaces", name: t("files.pickerSpaces") }])),
    enter: (level: Level) => setTrail((path) => [...(atSpaces ? [] : path), level]),
  };
}

export type PickerTrail = ReturnType<typeof usePickerTrail>;

type Props = {
  trail: PickerTrail;
  folders: Level[];
  label: string;
  /** Said when the level holds nothing to show (null while it loads). */
  empty: string | null;
  busy?: boolean;
  error: string | null;
  /** Rows after the folders (the PDFs of the document picker). */
  children?: ReactNode;
};

/** The walk: "up", where it stands, the level's folders (entered on click) and whatever else it lists. */
export function TreePicker({ trail, folders, label, empty, busy, error, children }: Props) {
  const t = useT();
  return (
    <div className={styles.picker}>
      <div className={styles.pickerHead}>
        <Button variant="ghost" size="small" data-autofocus disabled={trail.atSpaces} onClick={trail.up}>
          ← {t("files.pickerUp")}
        </Button>
        <strong>{t("files.pickerCurrent", { name: trail.here?.name ?? "…" })}</strong>
      </div>
      <ul className={styles.pickerList} aria-label={label} aria-busy={busy}>
        {empty && <li className={styles.pickerEmpty}>{empty}</li>}
        {folders.map((folder) => (
          <li key={`folder:${folder.id}`}>
            <button type="button" className={styles.pickerItem} onClick={() => trail.enter(folder)}>
              <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" className={styles.folderIcon}>
                <path d="M3 6.5A1.5 1.5 0 0 1 4.5 5h4.6l2 2h8.4A1.5 1.5 0 0 1 21 8.5v9a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5z" fill="currentColor" />
              </svg>
              {folder.name}
            </button>
          </li>
        ))}
        {children}
      </ul>
      <FormStatus status={error ? { tone: "error", message: error } : null} />
    </div>
  );
}

/** A PDF row of the document picker. */
export function PickerFile({ name, label, disabled, onPick }: { name: string; label: string; disabled: boolean; onPick: () => void }) {
  return (
    <li>
      <button type="button" className={styles.pickerItem} disabled={disabled} onClick={onPick} aria-label={label}>
        <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" className={styles.pdfIcon}>
          <path d="M6 3h8l4 4v14H6zM14 3v4h4" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round" />
        </svg>
        {name}
      </button>
    </li>
  );
}
