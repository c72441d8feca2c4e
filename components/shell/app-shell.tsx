"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Brand } from "@/components/brand";
import { useBrowserLanguage } from "@/lib/i18n/browser-language";
import { resolveLanguage, type UiLanguage } from "@/lib/i18n/languages";
import { I18nProvider, useT } from "@/lib/i18n/provider";
import { accountQuery, type Account } from "@/lib/queries/account";
import styles from "./app-shell.module.css";
import { UserMenu } from "./user-menu";

type Props = { platformName: string; initialAccount: Account; browserGuess: UiLanguage; children: ReactNode };

/**
 * The frame of every signed-in page. Its language follows the account as cached by TanStack
 * Query, so saving another language on /account switches the interface at once.
 */
export function AppShell({ platformName, initialAccount, browserGuess, children }: Props) {
  const { data: account = initialAccount } = useQuery({ ...accountQuery(), initialData: initialAccount });
  const browser = useBrowserLanguage(browserGuess);
  const language = resolveLanguage(account.language, [browser]);
  return (
    <I18nProvider language={language}>
      <Frame platformName={platformName} account={account}>
        {children}
      </Frame>
    </I18nProvider>
  );
}

function Frame({ platformName, account, children }: { platformName: string; account: Account; children: ReactNode }) {
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
        <UserMenu account={account} />
      </header>
      <nav className={styles.sidebar} aria-label={t("shell.navigation")}>
        <SidebarLinks />
      </nav>
      <main id="content" className={styles.main} tabIndex={-1}>
        <div className={styles.content}>{children}</div>
      </main>
    </div>
  );
}

// Only pages that exist are linked; Files, Trash, Shares and Admin join this list as they are built.
const LINKS = [
  { href: "/", label: "nav.home", icon: "M3 10.5 12 3l9 7.5V20a1 1 0 0 1-1 1h-5v-6h-6v6H4a1 1 0 0 1-1-1z" },
  { href: "/account", label: "nav.account", icon: "M12 12a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9zm-8 9a8 8 0 0 1 16 0" },
] as const;

function SidebarLinks() {
  const t = useT();
  const pathname = usePathname();
  return (
    <ul className={styles.nav}>
      {LINKS.map((link) => (
        <li key={link.href}>
          <Link href={link.href} className={styles.link} aria-current={pathname === link.href ? "page" : undefined}>
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
