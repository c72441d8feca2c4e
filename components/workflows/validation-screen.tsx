"use client";

import { useQuery } from "@tanstack/react-query";
import { FormStatus } from "@/components/ui/form-status";
import { ApiError } from "@/lib/api-client";
import { useT } from "@/lib/i18n/provider";
import type { MessageKey } from "@/lib/i18n/translate";
import { publicWorkflowQuery } from "@/lib/queries/workflows";
import { fluxLabel, stateLabel } from "./workflow-labels";
import { WorkflowReview } from "./workflow-review";
import { ScanUpload } from "./scan-upload";
import styles from "./workflows.module.css";

/** Why a link shows nothing: closed, cancelled, unknown, or the server could not be reached. */
function deadLinkMessage(error: unknown): MessageKey {
  if (!(error instanceof ApiError)) return "error.generic";
  if (error.code === "workflow_closed") return "workflow.public.closed";
  if (error.code === "workflow_cancelled") return "workflow.public.cancelled";
  if (error.code === "link_not_found" || error.code === "invalid_request") return "workflow.public.unknown";
  return error.status === 0 ? "error.network" : "error.generic";
}

/**
 * The page a validator's mailed link opens (`BASE_URL/workflow/<token>`), without an account:
 * who asks, the documents, and Validate / Refuse with a comment. Flux 2 signers send their
 * scanned signed document here instead.
 */
export function ValidationScreen({ token }: { token: string }) {
  const t = useT();
  const instance = useQuery(publicWorkflowQuery(token));
  if (instance.isPending) return <p className={styles.muted}>{t("common.loading")}</p>;
  if (instance.isError || !instance.data) return <FormStatus status={{ tone: "error", message: t(deadLinkMessage(instance.error)) }} banner />;
  const data = instance.data;
  const isSigner = data.me?.type === "signer";
  return (
    <div className={styles.stack}>
      <h1 className={styles.title}>{fluxLabel(t, data.flux)}</h1>
      <p className={styles.muted}>
        {t(isSigner ? "workflow.public.introSign" : "workflow.public.intro", { owner: data.owner })}{" "}
        <span className={`${styles.chip} ${styles[`chip_${data.state.id}`] ?? ""}`} data-testid="workflow-state">
          {stateLabel(t, data.state)}
        </span>
      </p>
      <WorkflowReview instance={data} linkKey={token} />
      {isSigner && !data.is_closed && !data.me?.decision && <ScanUpload token={token} />}
    </div>
  );
}
