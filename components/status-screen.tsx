"use client";

import type { ReactNode } from "react";
import { authStyles as styles } from "./auth/auth-card";

/** A full-page message (not found, unexpected error) with one way out. */
export function StatusScreen({ title, text, action }: { title: string; text?: string; action: ReactNode }) {
  return (
    <main className={styles.page}>
      <div className={styles.card}>
        <div className={styles.heading}>
          <h1>{title}</h1>
          {text && <p className={styles.intro}>{text}</p>}
        </div>
        <div>{action}</div>
      </div>
    </main>
  );
}
