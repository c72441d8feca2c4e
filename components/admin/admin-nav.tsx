"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { MessageKey } from "@/lib/i18n/catalogues/en";
import { useT } from "@/lib/i18n/provider";
import styles from "@/components/shell/app-shell.module.css";

type Entry = { href: string; label: MessageKey; icon: string; managers?: true };

// Managers reach only what the APIs let them do for their groups: users, groups, invitations,
// connection options. Logs, mail, jobs, configuration and statistics are administrators' alone.
const ENTRIES: Entry[] = [
  { href: "/admin", label: "admin.nav.dashboard", icon: "M4 20V10M10 20V4M16 20v-7M22 20H2" },
  { href: "/admin/users", label: "admin.nav.users", managers: true, icon: "M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-7 10a7 7 0 0 1 14 0M16 3.5a4 4 0 0 1 0 7.5M22 21a7 7 0 0 0-4-6.3" },
  { href: "/admin/groups", label: "admin.nav.groups", managers: true, icon: "M3 7h7v7H3zM14 7h7v7h-7zM7 14v4h10v-4" },
  { href: "/admin/invitations", label: "admin.nav.invitations", managers: true, icon: "M3 6h18v12H3zM3 7l9 6 9-6" },
  { href: "/admin/options", label: "admin.nav.options", managers: true, icon: "M12 3l8 3v6c0 4.5-3.4 8.3-8 9-4.6-.7-8-4.5-8-9V6z" },
  { href: "/admin/mail", label: "admin.nav.mail", icon: "M4 4h16v16H4zM4 8l8 5 8-5" },
  { href: "/admin/logs", label: "admin.nav.logs", icon: "M5 4h14v16H5zM8 8h8M8 12h8M8 16h5" },
  { href: "/admin/identity", label: "admin.nav.identity", icon: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21v-1a6 6 0 0 1 6-6h4M17 15v6M14 18h6" },
  { href: "/admin/oauth", label: "admin.nav.oauth", icon: "M8 20a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM10.8 13.2L20 4M16 8l3 3M14 10l2 2" },
  { href: "/admin/jobs", label: "admin.nav.jobs", icon: "M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zm0-13v5l3 2" },
  { href: "/admin/config", label: "admin.nav.config", icon: "M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM19 12l2-1-1-3-2 .2-1.3-1.3L17 5l-3-1-1 2h-2L10 4 7 5l.3 1.9L6 8.2 4 8l-1 3 2 1v0l-2 1 1 3 2-.2 1.3 1.3L7 19l3 1 1-2h2l1 2 3-1-.3-1.9 1.3-1.3 2 .2 1-3z" },
];

function NavIcon({ d }: { d: string }) {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" strokeLinecap="round" aria-hidden="true">
      <path d={d} />
    </svg>
  );
}

/** The console's sidebar: back to the files, then the screens this user may use. */
export function AdminNav({ administrator }: { administrator: boolean }) {
  const t = useT();
  const pathname = usePathname() ?? "";
  const current = (href: string) => (href === "/admin" ? pathname === "/admin" : pathname === href || pathname.startsWith(`${href}/`));
  return (
    <ul className={styles.nav}>
      <li>
        <Link href="/" className={styles.link}>
          <NavIcon d="M15 18l-6-6 6-6" />
          {t("admin.nav.back")}
        </Link>
      </li>
      {ENTRIES.filter((entry) => administrator || entry.managers).map((entry) => (
        <li key={entry.href}>
          <Link href={entry.href} className={styles.link} aria-current={current(entry.href) ? "page" : undefined}>
            <NavIcon d={entry.icon} />
            {t(entry.label)}
          </Link>
        </li>
      ))}
      <li>
        {/* The API reference is its own page, outside the console (no sidebar there). */}
        <a href="/docs/api" className={styles.link}>
          <NavIcon d="M8 6l-6 6 6 6M16 6l6 6-6 6M14 4l-4 16" />
          {t("admin.nav.apiDocs")}
        </a>
      </li>
    </ul>
  );
}
