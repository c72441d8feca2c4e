"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ActingBanner } from "@/components/admin/people/acting-banner";
import { Brand } from "@/components/brand";
import { ToastProvider } from "@/components/ui/toast";
import { useBrowserLanguage } from "@/lib/i18n/browser-language";
import { resolveLanguage, type UiLanguage } from "@/lib/i18n/languages";
import { I18nProvider, useT } from "@/lib/i18n/provider";
import { accountQuery, type Account } from "@/lib/queries/account";
import styles from "./app-shell.module.css";
import { NotificationBell } from "./notification-bell";
import { SidebarRecent } from "./sidebar-recent";
import { SidebarStarred } from "./sidebar-starred";
import { SidebarStorage } from "./storage-usage";
import { UserMenu } from "./user-menu";

type Props = {
  platformName: string;
  initialAccount: Account;
  browserGuess: UiLanguage;
  /** Replaces the application's links in the sidebar (the admin console brings its own). */
  navigation?: ReactNode;
  /** Lets the content use the whole width (the console's tables). */
  wide?: boolean;
  children: ReactNode;
};

/**
 * The frame of every signed-in page. Its language follows the account as cached by TanStack
 * Query, so saving another language on /account switches the interface at once.
 */
export function AppShell({ platformName, initialAccount, browserGuess, navigation, wide, children }: Props) {
  const { data: account = initialAccount } = useQuery({ ...accountQuery(), initialData: initialAccount });
  const browser = useBrowserLanguage(browserGuess);
  const language = resolveLanguage(account.language, [browser]);
  return (
    <I18nProvider language={language}>
      <ToastProvider>
        <Frame platformName={platformName} account={account} navigation={navigation} wide={wide}>
          {children}
        </Frame>
      </ToastProvider>
    </I18nProvider>
  );
}

function Frame({ platformName, account, navigation, wide, children }: { platformName: string; account: Account; navigation?: ReactNode; wide?: boolean; children: ReactNode }) {
  const t = useT();
  return (
    <div className={styles.shell}>
      <a className={styles.skip} href="#content">
        {t("shell.skipToContent")}
      </a>
      <header className={styles.header}>
        <Link href="/" className={styles.home}>
          <Brand name={platformName} />
        </Link>
        <ActingBanner />
        <NotificationBell />
        <UserMenu account={account} />
      </header>
      <nav className={styles.sidebar} aria-label={t("shell.navigation")}>
        {navigation ?? (
          <>
            <SidebarLinks external={account.role === 1} console={account.role === 3 || account.role === 4} />
            <SidebarStarred />
            <SidebarRecent />
            <SidebarStorage />
          </>
        )}
      </nav>
      <main id="content" className={styles.main} tabIndex={-1}>
        <div className={wide ? styles.wideContent : styles.content}>{children}</div>
      </main>
    </div>
  );
}

// Only pages that exist are linked.
// `match` says which paths light the entry up (/files/<id> stays under My files). External users
// (role 1, invited from outside) have no private space and no company space: `internal` entries are not theirs.
const LINKS = [
  { href: "/", label: "nav.home", icon: "M3 10.5 12 3l9 7.5V20a1 1 0 0 1-1 1h-5v-6h-6v6H4a1 1 0 0 1-1-1z", match: (p: string) => p === "/" },
  {
    href: "/files",
    label: "nav.myFiles",
    internal: true,
    icon: "M3 6.5A1.5 1.5 0 0 1 4.5 5h4.6l2 2h8.4A1.5 1.5 0 0 1 21 8.5v9a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5z",
    match: (p: string) => p === "/files" || /^\/files\/\d+$/.test(p),
  },
  { href: "/files/company", label: "nav.company", internal: true, icon: "M4 21V5l8-2v18M12 9h8v12M8 8v.01M8 12v.01M8 16v.01M16 13v.01M16 17v.01M3 21h18", match: (p: string) => p === "/files/company" },
  { href: "/files/shared", label: "nav.shared", icon: "M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm-7 10a7 7 0 0 1 14 0M16 3.5a4 4 0 0 1 0 7.5M22 21a7 7 0 0 0-4-6.3", match: (p: string) => p === "/files/shared" },
  { href: "/links", label: "nav.links", icon: "M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1", match: (p: string) => p === "/links" },
  { href: "/signatures", label: "nav.signatures", icon: "M4 20h4L19 9l-4-4L4 16zM14 6l4 4M13 20h7", match: (p: string) => p === "/signatures" || p.startsWith("/signatures/") },
  { href: "/workflows", label: "nav.workflows", icon: "M9 11l3 3 8-8M20 12v7a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h11", match: (p: string) => p === "/workflows" },
  { href: "/recent", label: "nav.recent", icon: "M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zm0-13v5l3 2", match: (p: string) => p === "/recent" },
  { href: "/starred", label: "nav.starred", icon: "M12 3l2.8 5.7 6.2.9-4.5 4.4 1 6.2L12 17.3 6.5 20.2l1-6.2L3 9.6l6.2-.9z", match: (p: string) => p === "/starred" },
  { href: "/archives", label: "archives.title", icon: "M3 4h18v4H3zM5 8v12h14V8M10 12h4", match: (p: string) => p === "/archives" },
  { href: "/trash", label: "nav.trash", icon: "M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3", match: (p: string) => p === "/trash" },
  { href: "/account", label: "nav.account", icon: "M12 12a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9zm-8 9a8 8 0 0 1 16 0", match: (p: string) => p === "/account" },
  // Administrators and managers (roles 3 and 4) only: the console at /admin.
  { href: "/admin", label: "admin.nav.link", console: true, icon: "M12 3l8 3v6c0 4.5-3.4 8.3-8 9-4.6-.7-8-4.5-8-9V6zM9 12l2 2 4-4", match: (p: string) => p.startsWith("/admin") },
] as const;

function SidebarLinks({ external, console: canAdminister }: { external: boolean; console: boolean }) {
  const t = useT();
  const pathname = usePathname();
  return (
    <ul className={styles.nav}>
      {LINKS.filter((link) => !(external && "internal" in link) && (canAdminister || !("console" in link))).map((link) => (
        <li key={link.href}>
          <Link href={link.href} className={styles.link} aria-current={link.match(pathname ?? "") ? "page" : undefined}>
            <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" strokeLinecap="round" aria-hidden="true">
              <path d={link.icon} />
            </svg>
            {t(link.label)}
          </Link>
        </li>
      ))}
    </ul>
  );
}
