"use client";

import { useCallback, useSyncExternalStore } from "react";
import { useT } from "@/lib/i18n/provider";
import styles from "./file-grid.module.css";

export type BrowserView = "list" | "grid";

const KEY = "coffre.browserView";
const listeners = new Set<() => void>();
const read = (): BrowserView => (typeof window !== "undefined" && window.localStorage.getItem(KEY) === "grid" ? "grid" : "list");

/** List or grid, remembered per browser (localStorage), the same in every folder and tab of it. */
export function useBrowserView(): [BrowserView, (view: BrowserView) => void] {
  const view = useSyncExternalStore(
    (notify) => {
      listeners.add(notify);
      window.addEventListener("storage", notify);
      return () => {
        listeners.delete(notify);
        window.removeEventListener("storage", notify);
      };
    },
    read,
    () => "list" as const,
  );
  const setView = useCallback((next: BrowserView) => {
    window.localStorage.setItem(KEY, next);
    for (const notify of listeners) notify();
  }, []);
  return [view, setView];
}

/** Two pressed-or-not buttons, icons with their names for screen readers and as tooltips. */
export function ViewToggle({ view, onView }: { view: BrowserView; onView: (view: BrowserView) => void }) {
  const t = useT();
  return (
    <div role="group" aria-label={t("files.viewLabel")} className={styles.viewToggle}>
      <button type="button" className={styles.viewButton} aria-pressed={view === "list"} aria-label={t("files.viewList")} title={t("files.viewList")} onClick={() => onView("list")}>
        <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" fill="currentColor">
          <rect x="2" y="3" width="12" height="2" rx="1" />
          <rect x="2" y="7" width="12" height="2" rx="1" />
          <rect x="2" y="11" width="12" height="2" rx="1" />
        </svg>
      </button>
      <button type="button" className={styles.viewButton} aria-pressed={view === "grid"} aria-label={t("files.viewGrid")} title={t("files.viewGrid")} onClick={() => onView("grid")}>
        <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" fill="currentColor">
          <rect x="2" y="2" width="5" height="5" rx="1" />
          <rect x="9" y="2" width="5" height="5" rx="1" />
          <rect x="2" y="9" width="5" height="5" rx="1" />
          <rect x="9" y="9" width="5" height="5" rx="1" />
        </svg>
      </button>
    </div>
  );
}
