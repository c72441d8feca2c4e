"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { LocalTime } from "@/components/local-time";
import { Card } from "@/components/ui/card";
import { isUiLanguage, LANGUAGE_ENDONYMS } from "@/lib/i18n/languages";
import { useT } from "@/lib/i18n/provider";
import type { MessageKey } from "@/lib/i18n/translate";
import { accountQuery, displayName } from "@/lib/queries/account";
import buttonStyles from "@/components/ui/button.module.css";
import styles from "./home-screen.module.css";

const SHORTCUTS = [
  { href: "/files", label: "nav.myFiles", internal: true },
  { href: "/files/shared", label: "nav.shared" },
  { href: "/recent", label: "nav.recent" },
  { href: "/links", label: "nav.links" },
] as const;

/** The signed-in home page: a welcome, the ways into the files, and the account at a glance. */
export function HomeScreen() {
  const t = useT();
  const { data: account } = useQuery(accountQuery());
  if (!account) return <p className="muted">{t("common.loading")}</p>;
  const language = isUiLanguage(account.language) ? LANGUAGE_ENDONYMS[account.language] : t("account.languageAuto");
  return (
    <>
      <section className={styles.hero} aria-labelledby="welcome">
        <svg className={styles.illustration} width="64" height="64" viewBox="0 0 64 64" fill="none" aria-hidden="true">
          <rect x="6" y="14" width="52" height="40" rx="6" fill="currentColor" opacity="0.12" />
          <path d="M6 20a6 6 0 0 1 6-6h12l6 6h22a6 6 0 0 1 6 6v22a6 6 0 0 1-6 6H12a6 6 0 0 1-6-6z" stroke="currentColor" strokeWidth="2.5" strokeLinejoin="round" />
          <path d="M24 38h16M32 30v16" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
        </svg>
        <div className={styles.heroText}>
          <h1 id="welcome">{t("home.welcome", { name: displayName(account) })}</h1>
          <p>{t("home.intro")}</p>
          <p>{t("home.meanwhile")}</p>
          <ul className={styles.shortcuts}>
            {SHORTCUTS.filter((link) => account.role !== 1 || !("internal" in link)).map((link) => (
              <li key={link.href}>
                <Link href={link.href} className={`${buttonStyles.button} ${buttonStyles.secondary}`}>
                  {t(link.label)}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <Card title={t("home.accountTitle")}>
        <dl className={styles.facts}>
          <dt>{t("home.login")}</dt>
          <dd>{account.login}</dd>
          <dt>{t("home.email")}</dt>
          <dd>{account.email || <span className="muted">{t("common.notSet")}</span>}</dd>
          <dt>{t("home.role")}</dt>
          <dd>{t(`role.${account.role}` as MessageKey)}</dd>
          <dt>{t("home.language")}</dt>
          <dd>{language}</dd>
          <dt>{t("home.lastLogin")}</dt>
          <dd>{account.last_login ? <LocalTime iso={account.last_login} /> : <span className="muted">{t("common.notSet")}</span>}</dd>
        </dl>
        <div className={styles.actions}>
          <Link href="/account" className={`${buttonStyles.button} ${buttonStyles.secondary}`}>
            {t("home.editAccount")}
          </Link>
        </div>
      </Card>
    </>
  );
}
