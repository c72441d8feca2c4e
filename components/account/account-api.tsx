"use client";

import { Card } from "@/components/ui/card";
import { useT } from "@/lib/i18n/provider";
import styles from "./account-applications.module.css";

/** Where scripts and applications learn the API this account may use (issue 27, item 6). */
export function AccountApi() {
  const t = useT();
  return (
    <Card title={t("account.api.title")} description={t("account.api.help")}>
      <p className={styles.dates}>
        <a href="/docs/api">{t("account.api.link")}</a>
      </p>
    </Card>
  );
}
