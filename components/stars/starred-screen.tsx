"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { describeFileError, formatDate } from "@/components/file-browser/format";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { starsQuery, useToggleStar } from "@/lib/queries/stars";
import styles from "@/components/trash/trash.module.css";
import { starredHref } from "./starred-href";

/** The caller's starred files and folders (GET /api/stars), each with a way to it and to unstar it (issue 29). */
export function StarredScreen() {
  const t = useT();
  const toast = useToast();
  const locale = htmlLang(useLanguage());
  const stars = useQuery(starsQuery());
  const toggle = useToggleStar();
  const list = stars.data ?? [];
  return (
    <div className={styles.screen}>
      <PageHeader title={t("stars.title")} subtitle={t("stars.subtitle")} />
      {stars.isPending && <p className={styles.state}>{t("common.loading")}</p>}
      {stars.isError && (
        <div className={styles.stateBox} role="alert">
          <p>{t("files.error")}</p>
          <Button onClick={() => stars.refetch()}>{t("error.retry")}</Button>
        </div>
      )}
      {stars.isSuccess && list.length === 0 && (
        <div className={styles.stateBox}>
          <p>{t("stars.empty")}</p>
        </div>
      )}
      {list.length > 0 && (
        <ul className={styles.list} aria-label={t("stars.title")}>
          {list.map((star) => (
            <li key={`${star.type}:${star.id}`} className={styles.item}>
              <div className={styles.main}>
                <strong className={styles.name}>{star.name}</strong>
                <span className={styles.meta}>
                  {star.type === "folder" ? t("stars.folder") : t("stars.file")}
                  {star.path_crumbs.length > 0 ? ` · /${star.path_crumbs.map((c) => c.name).join("/")}` : ""} · {formatDate(star.date, locale)}
                </span>
              </div>
              <div className={styles.actions}>
                <Link href={starredHref(star)}>{star.type === "folder" ? t("files.open") : t("recent.openFolder")}</Link>
                <Button
                  variant="secondary"
                  size="small"
                  aria-label={t("stars.unstarNamed", { name: star.name })}
                  disabled={toggle.isPending}
                  onClick={() => toggle.mutate({ target: { kind: star.type, id: star.id }, starred: false }, { onError: (e) => toast({ tone: "error", message: t("files.actionFailed", { reason: describeFileError(e, t) }) }) })}
                >
                  {t("stars.unstar")}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
