"use client";

import { Button } from "@/components/ui/button";
import { useT } from "@/lib/i18n/provider";
import styles from "./admin.module.css";
import { describeAdminError } from "./describe-error";

type Query = { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };

/** A console list while it loads, or why it failed with a way to try again; nothing once it has its rows. */
export function QueryState({ query }: { query: Query }) {
  const t = useT();
  if (query.isPending) return <p className={styles.state}>{t("common.loading")}</p>;
  if (!query.isError) return null;
  return (
    <div className={styles.stateBox} role="alert">
      <p>{describeAdminError(query.error, t)}</p>
      <Button onClick={() => query.refetch()}>{t("error.retry")}</Button>
    </div>
  );
}
