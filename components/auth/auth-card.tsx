import type { ReactNode } from "react";
import { Brand } from "../brand";
import styles from "./auth-card.module.css";

/** The frame of the signed-out screens: brand, a titled card, an optional footer link. */
export function AuthCard({ platformName, title, intro, children, footer }: { platformName: string; title: string; intro?: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <main className={styles.page}>
      <Brand name={platformName} size={36} />
      <div className={styles.card}>
        <div className={styles.heading}>
          <h1>{title}</h1>
          {intro && <p className={styles.intro}>{intro}</p>}
        </div>
        {children}
      </div>
      {footer && <div className={styles.footer}>{footer}</div>}
    </main>
  );
}

export const authStyles = styles;
