"use client";

import { Menu, type MenuItem } from "@/components/ui/menu";
import styles from "./people.module.css";

export type RowMenuItem = MenuItem;

/** "More" actions of a console table's row: the design system's Menu behind a labelled "More ▾" button. */
export function RowMenu({ label, text, items }: { label: string; text: string; items: RowMenuItem[] }) {
  return (
    <Menu
      label={label}
      items={items}
      trigger={
        <button type="button" className={styles.moreButton} aria-label={label}>
          {text}
          <svg width="10" height="6" viewBox="0 0 12 8" aria-hidden="true">
            <path d="M1 1.5l5 5 5-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </button>
      }
    />
  );
}
