"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useT } from "@/lib/i18n/provider";
import { activityQuery } from "@/lib/queries/files";
import styles from "./app-shell.module.css";

/** How many of the latest files the sidebar lists; the Recent page has them all. */
const SHOWN = 5;

/**
 * The sidebar's Recent section: the caller's last few files (GET /api/file/activity, the cache the
 * Recent page shares), each opening its folder. Nothing shows until there is a file to list.
 */
export function SidebarRecent() {
  const t = useT();
  const files = (useQuery(activityQuery()).data ?? []).slice(0, SHOWN);
  if (files.length === 0) return null;
  return (
    <section className={styles.recent} aria-labelledby="sidebar-recent">
      <h2 id="sidebar-recent" className={styles.recentTitle}>
        {t("recent.sidebar")}
      </h2>
      <ul>
        {files.map((file) => (
          <li key={file.id}>
            <Link href={`/files/${file.parent_id}`} className={styles.recentLink} title={t("recent.openIn", { name: file.name })}>
              {file.name}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
