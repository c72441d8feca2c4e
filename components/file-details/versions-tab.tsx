"use client";

import { useQuery } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { htmlLang } from "@/lib/i18n/languages";
import { useRestoreVersion, versionsQuery } from "@/lib/queries/details";
import type { FileResponse } from "@/lib/queries/files";
import { describeFileError, formatBytes, formatDate } from "../file-browser/format";
import styles from "./details.module.css";

/** Every version, newest first: download any, or make an older one the newest again. */
export function VersionsTab({ file }: { file: FileResponse }) {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const toast = useToast();
  const versions = useQuery(versionsQuery(file.id));
  const restore = useRestoreVersion();
  if (versions.isPending) return <p className={styles.muted}>{t("common.loading")}</p>;
  if (versions.isError) return <p role="alert">{t("error.generic")}</p>;
  const list = versions.data;
  return (
    <ol className={styles.list} aria-label={t("details.versions")}>
      {list.map((version, index) => (
        <li key={version.id} className={styles.row} data-testid="version-row">
          <div className={styles.rowMain}>
            <strong>{t("details.versionNumber", { number: list.length - index })}</strong>
            {index === 0 && <span className={styles.badge}>{t("details.current")}</span>}
            <span className={styles.muted}>
              {formatDate(version.modification ?? version.creation, locale)} · {formatBytes(version.size, locale)}
              {version.owner ? ` · ${version.owner}` : ""}
            </span>
          </div>
          <div className={styles.rowActions}>
            {version.can_download && (
              <a className={styles.link} href={`/api/file/${version.id}/download`} download aria-label={t("details.downloadVersion", { number: list.length - index })}>
                {t("files.download")}
              </a>
            )}
            {index > 0 && file.can_edit && (
              <Button
                size="small"
                variant="secondary"
                disabled={restore.isPending}
                onClick={() =>
                  restore.mutate(version, {
                    onSuccess: () => toast({ tone: "info", message: t("details.restored", { number: list.length - index }) }),
                    onError: (e) => toast({ tone: "error", message: t("files.actionFailed", { reason: describeFileError(e, t) }) }),
                  })
                }
              >
                {t("details.restoreVersion")}
              </Button>
            )}
          </div>
        </li>
      ))}
    </ol>
  );
}
