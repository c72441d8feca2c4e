"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { formatBytes } from "@/components/file-browser/format";
import { UsageBar } from "@/components/shell/storage-usage";
import { Card } from "@/components/ui/card";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { ownStorageQuery } from "@/lib/queries/storage";
import styles from "@/components/shell/storage-usage.module.css";

/** The account's usage against its quota and the folders holding most of it (GET /api/account/storage). */
export function AccountStorage() {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const storage = useQuery(ownStorageQuery());
  return (
    <Card title={t("storage.title")} description={t("storage.help")}>
      {storage.isPending && <p className={styles.label}>{t("common.loading")}</p>}
      {storage.isError && <p role="alert">{t("error.generic")}</p>}
      {storage.data && (
        <>
          <UsageBar storage={storage.data} />
          {storage.data.folders.length > 0 && (
            <>
              <h3 className={styles.heading}>{t("storage.largest")}</h3>
              <ul className={styles.folders} aria-label={t("storage.largest")}>
                {storage.data.folders.map((folder) => (
                  <li key={folder.id} className={styles.folder}>
                    <Link href={`/files/${folder.id}`}>{folder.name}</Link>
                    <span className={styles.label}>{formatBytes(folder.size, locale)}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </Card>
  );
}
