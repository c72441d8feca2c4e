import { useId, type ReactNode } from "react";
import styles from "./card.module.css";

/** A titled block of a page: its heading labels the region. */
export function Card({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className={`${styles.card} ${styles.section}`} aria-labelledby={id}>
      <div className={styles.header}>
        <h2 id={id}>{title}</h2>
        {description && <p className={styles.description}>{description}</p>}
      </div>
      {children}
    </section>
  );
}
