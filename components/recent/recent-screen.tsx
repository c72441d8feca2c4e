"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { formatBytes, formatDate } from "@/components/file-browser/format";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { activityQuery, downloadUrl } from "@/lib/queries/files";
import styles from "@/components/trash/trash.module.css";

/** The caller's latest file versions (GET /api/file/activity), each with a way to its folder. */
export function RecentScreen() {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const activity = useQuery(activityQuery());
  const files = activity.data ?? [];
  return (
    <div className={styles.screen}>
      <PageHeader title={t("recent.title")} subtitle={t("recent.subtitle")} />
      {activity.isPending && <p className={styles.state}>{t("common.loading")}</p>}
      {activity.isError && (
        <div className={styles.stateBox} role="alert">
          <p>{t("files.error")}</p>
          <Button onClick={() => activity.refetch()}>{t("error.retry")}</Button>
        </div>
      )}
      {activity.isSuccess && files.length === 0 && (
        <div className={styles.stateBox}>
          <p>{t("recent.empty")}</p>
        </div>
      )}
      {files.length > 0 && (
        <ul className={styles.list} aria-label={t("recent.title")}>
          {files.map((file) => (
            <li key={file.id} className={styles.item}>
              <div className={styles.main}>
                <strong className={styles.name}>{file.name}</strong>
                <span className={styles.meta}>
                  {formatDate(file.modification ?? file.creation, locale)} · {formatBytes(file.size, locale)}
                </span>
              </div>
              <div className={styles.actions}>
                <Link href={`/files/${file.parent_id}`}>{t("recent.openFolder")}</Link>
                {file.can_download && (
                  <a href={downloadUrl(file)} download>
                    {t("files.download")}
                  </a>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
