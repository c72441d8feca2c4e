"use client";

import { Button } from "@/components/ui/button";
import { useT } from "@/lib/i18n/provider";
import styles from "./admin.module.css";

/** Previous / next over an envelope's `nb_total_objects`, with "21–40 of 95". */
export function Pager({ offset, limit, total, onChange, label }: { offset: number; limit: number; total: number; onChange: (offset: number) => void; label?: string }) {
  const t = useT();
  if (total === 0) return null;
  const last = Math.min(offset + limit, total);
  return (
    <nav className={styles.pager} aria-label={label ?? t("admin.pager.label")}>
      <span aria-live="polite">{t("admin.pager.range", { first: offset + 1, last, total })}</span>
      <span className={styles.actions}>
        <Button size="small" variant="secondary" disabled={offset === 0} onClick={() => onChange(Math.max(0, offset - limit))}>
          {t("admin.pager.previous")}
        </Button>
        <Button size="small" variant="secondary" disabled={last >= total} onClick={() => onChange(offset + limit)}>
          {t("admin.pager.next")}
        </Button>
      </span>
    </nav>
  );
}
