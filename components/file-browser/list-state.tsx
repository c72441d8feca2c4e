"use client";

import { useRouter } from "next/navigation";
import { useSyncExternalStore, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { ApiError } from "@/lib/api-client";
import { useT } from "@/lib/i18n/provider";
import type { Location } from "@/lib/queries/files";
import { countInterruptedUploads, useUploads } from "@/lib/queries/uploads";
import styles from "./file-browser.module.css";

type ListStateProps = {
  location: Location;
  content: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  results: { isFetching: boolean; isError: boolean; refetch: () => unknown };
  isSearching: boolean;
  query: string;
  canWrite: boolean;
  count: number;
};

/** What the list area says when it has no rows: loading, failed (and what to do), or empty. */
export function ListState({ location, content, results, isSearching, query, canWrite, count }: ListStateProps) {
  const t = useT();
  const router = useRouter();
  if (isSearching) {
    if (results.isFetching && count === 0) return <p className={styles.state}>{t("common.loading")}</p>;
    if (results.isError) return <StateBox title={t("error.generic")} action={<Button onClick={() => results.refetch()}>{t("error.retry")}</Button>} />;
    if (count === 0) return <StateBox title={query ? t("files.searchEmpty", { query }) : t("search.nothing")} />;
    return null;
  }
  if (content.isPending) return <p className={styles.state}>{t("files.loading")}</p>;
  if (content.isError) {
    const status = content.error instanceof ApiError ? content.error.status : 0;
    if (status === 404 || status === 403)
      return <StateBox title={t("files.notFound")} action={<Button onClick={() => router.push("/files")}>{t("files.backToMyFiles")}</Button>} />;
    return <StateBox title={t("files.error")} text={t("files.errorHint")} action={<Button onClick={() => content.refetch()}>{t("error.retry")}</Button>} />;
  }
  if (count > 0) return null;
  if (location.kind === "space" && location.space === "shared") return <StateBox title={t("files.emptySpace")} />;
  return <StateBox title={t("files.empty")} text={canWrite ? t("files.emptyHint") : t("files.emptyReadOnly")} />;
}

function StateBox({ title, text, action }: { title: string; text?: string; action?: ReactNode }) {
  return (
    <div className={styles.stateBox}>
      <p className={styles.stateTitle}>{title}</p>
      {text && <p>{text}</p>}
      {action}
    </div>
  );
}

const noSubscription = () => () => {};

/** After a reload, uploads that had started can continue: say so while nothing is uploading. */
export function InterruptedNotice() {
  const t = useT();
  const uploads = useUploads();
  const count = useSyncExternalStore(noSubscription, countInterruptedUploads, () => 0);
  if (count === 0 || uploads.length > 0) return null;
  return <p className={styles.notice}>{t("uploads.interrupted", { count })}</p>;
}
