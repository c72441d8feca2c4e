"use client";

import { useEffect, useRef, type KeyboardEvent } from "react";
import { useT } from "@/lib/i18n/provider";
import type { MessageKey } from "@/lib/i18n/translate";
import styles from "./file-browser.module.css";

export type Action = "open" | "preview" | "details" | "star" | "unstar" | "share" | "dropLink" | "download" | "rename" | "move" | "copy" | "tag" | "delete" | "requestSignatures" | "startValidation" | "template" | "archive";
/** What the toolbar's "More" menu adds on narrow screens: the creation buttons it has no room for. */
export type CreateAction = "newFolder" | "upload" | "uploadFolder" | "fromTemplate";

const LABELS: Record<Action | CreateAction, MessageKey> = {
  open: "files.open",
  preview: "files.preview",
  details: "files.details",
  star: "stars.star",
  unstar: "stars.unstar",
  share: "files.share",
  dropLink: "files.dropLink",
  download: "files.download",
  rename: "files.rename",
  move: "files.move",
  copy: "files.copy",
  tag: "files.tag",
  delete: "files.delete",
  requestSignatures: "files.requestSignatures",
  startValidation: "workflow.start.action",
  template: "templates.makeAction",
  archive: "archives.archiveAction",
  newFolder: "files.newFolder",
  upload: "files.upload",
  uploadFolder: "files.uploadFolder",
  fromTemplate: "templates.newFromTemplate",
};

type Props<A extends Action | CreateAction> = { x: number; y: number; actions: A[]; onAction: (action: A) => void; onClose: () => void; label?: string };

/** The context menu of the selection (WAI-ARIA menu): arrows move, Enter runs, Escape closes. */
export function ItemMenu<A extends Action | CreateAction>({ x, y, actions, onAction, onClose, label }: Props<A>) {
  const t = useT();
  const ref = useRef<HTMLUListElement>(null);

  useEffect(() => {
    const menu = ref.current;
    if (!menu) return;
    menu.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const close = (event: PointerEvent) => {
      if (!menu.contains(event.target as Node)) onClose();
    };
    document.addEventListener("pointerdown", close);
    return () => document.removeEventListener("pointerdown", close);
  }, [onClose]);

  function onKey(event: KeyboardEvent<HTMLUListElement>) {
    const items = Array.from(event.currentTarget.querySelectorAll<HTMLElement>('[role="menuitem"]'));
    const index = items.indexOf(document.activeElement as HTMLElement);
    if (event.key === "Escape" || event.key === "Tab") {
      event.preventDefault();
      onClose();
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      items[(index + step + items.length) % items.length]?.focus();
    } else if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      items[event.key === "Home" ? 0 : items.length - 1]?.focus();
    }
  }

  // Kept inside the window, whatever was clicked.
  const left = Math.max(8, Math.min(x, (typeof window === "undefined" ? 1024 : window.innerWidth) - 200));
  const top = Math.max(8, Math.min(y, (typeof window === "undefined" ? 768 : window.innerHeight) - actions.length * 40 - 16));
  return (
    <ul ref={ref} role="menu" aria-label={label ?? t("files.toolbar")} className={styles.menu} style={{ left, top }} onKeyDown={onKey}>
      {actions.map((action) => (
        <li role="none" key={action}>
          <button
            type="button"
            role="menuitem"
            tabIndex={-1}
            className={[styles.menuItem, action === "delete" && styles.menuDanger].filter(Boolean).join(" ")}
            onClick={() => onAction(action)}
          >
            {t(LABELS[action])}
          </button>
        </li>
      ))}
    </ul>
  );
}

export const actionLabel = (action: Action | CreateAction): MessageKey => LABELS[action];
