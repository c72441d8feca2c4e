"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useT } from "@/lib/i18n/provider";
import { fileWorkflowQuery } from "@/lib/queries/workflows";
import { fluxLabel, stateLabel } from "./workflow-labels";
import styles from "./workflows.module.css";

/** In a file's details: the workflow holding it (the File's `workflow` field, full mode), if any. */
export function FileWorkflowStatus({ versionId }: { versionId: number }) {
  const t = useT();
  const workflow = useQuery(fileWorkflowQuery(versionId));
  if (!workflow.data) return null;
  const { state, is_closed: closed, flux } = workflow.data;
  return (
    <p className={styles.fileStatus} data-testid="file-workflow">
      <span>{fluxLabel(t, { id: flux })}:</span>
      <span className={`${styles.chip} ${styles[`chip_${state.id}`] ?? ""}`}>{stateLabel(t, state)}</span>
      <span className={styles.muted}>{t(closed ? "workflow.file.closed" : "workflow.file.open")}</span>
      <Link href="/workflows">{t("workflow.file.see")}</Link>
    </p>
  );
}
