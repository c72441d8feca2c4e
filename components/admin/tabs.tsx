"use client";

import styles from "./admin.module.css";

/** A row of toggle buttons choosing what the screen lists (buttons with aria-pressed: plain Tab and Enter). */
export function Tabs<T extends string>({ label, value, options, onChange }: { label: string; value: T; options: { value: T; label: string }[]; onChange: (value: T) => void }) {
  return (
    <div className={styles.tabs} role="group" aria-label={label}>
      {options.map((o) => (
        <button key={o.value} type="button" className={styles.tab} aria-pressed={o.value === value} onClick={() => onChange(o.value)}>
          {o.label}
        </button>
      ))}
    </div>
  );
}
