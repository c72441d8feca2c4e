import type { ReactNode } from "react";
import { Brand } from "@/components/brand";
import styles from "./public.module.css";

/** The frame of the pages link recipients open: the brand, then one card. */
export function PublicFrame({ platformName, children, wide = false }: { platformName: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <Brand name={platformName} />
      </header>
      <main className={`${styles.card} ${wide ? styles.wide : ""}`}>{children}</main>
    </div>
  );
}
