"use client";

import { useQuery } from "@tanstack/react-query";
import { formatBytes } from "@/components/file-browser/format";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { ownStorageQuery, usedShare, type OwnStorage } from "@/lib/queries/storage";
import styles from "./storage-usage.module.css";

/** "1.2 MB of 10 MB used" (or "1.2 MB used" without a quota) over a meter that turns red past 90 %. */
export function UsageBar({ storage, compact = false }: { storage: Pick<OwnStorage, "quota" | "used">; compact?: boolean }) {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const share = usedShare(storage);
  const used = formatBytes(storage.used, locale);
  const label = storage.quota ? t("storage.usedOf", { used, quota: formatBytes(storage.quota, locale) }) : t("storage.usedNoQuota", { used });
  return (
    <div className={compact ? `${styles.usage} ${styles.compact}` : styles.usage} data-testid="storage-usage">
      {share !== null && (
        <div
          role="meter"
          aria-label={t("storage.title")}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(share * 100)}
          aria-valuetext={label}
          className={styles.track}
        >
          <div className={share >= 0.9 ? `${styles.fill} ${styles.full}` : styles.fill} style={{ width: `${Math.max(share * 100, 1)}%` }} />
        </div>
      )}
      <p className={styles.label}>{label}</p>
    </div>
  );
}

/** The shell's sidebar line under the navigation; nothing while loading or on an error (the account page says more). */
export function SidebarStorage() {
  const storage = useQuery(ownStorageQuery());
  if (!storage.data) return null;
  return <UsageBar storage={storage.data} compact />;
}
