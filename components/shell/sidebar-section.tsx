"use client";

import Link from "next/link";
import styles from "./app-shell.module.css";

export type SidebarEntry = { key: string; href: string; name: string; title: string };

/** A titled list of a few shortcuts under the sidebar's links (Recent, Starred); nothing when empty. */
export function SidebarSection({ id, title, entries }: { id: string; title: string; entries: SidebarEntry[] }) {
  if (entries.length === 0) return null;
  return (
    <section className={styles.recent} aria-labelledby={id}>
      <h2 id={id} className={styles.recentTitle}>
        {title}
      </h2>
      <ul>
        {entries.map((entry) => (
          <li key={entry.key}>
            <Link href={entry.href} className={styles.recentLink} title={entry.title}>
              {entry.name}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
