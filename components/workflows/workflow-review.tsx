"use client";

import { useState } from "react";
import { PreviewBody } from "@/components/file-preview/preview-dialog";
import { formatBytes } from "@/components/file-browser/format";
import { Button } from "@/components/ui/button";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { ApiError } from "@/lib/api-client";
import type { WorkflowDocumentResponse, WorkflowInstanceResponse } from "@/lib/contracts/workflows";
import { useT } from "@/lib/i18n/provider";
import { useDecideWorkflow, workflowDocumentToken } from "@/lib/queries/workflows";
import { stateLabel } from "./workflow-labels";
import styles from "./workflows.module.css";

type Props = {
  instance: WorkflowInstanceResponse;
  /** The mailed token (public page) or the instance id (signed in): the documents and the decision go through it. */
  linkKey: string | number;
};

/**
 * What a validator works with: the sender's message, the documents (shown in the page with the
 * platform's viewers, or downloaded), and the decision with an optional comment. The same on the
 * public page of a mailed link and in the app for internal validators.
 */
export function WorkflowReview({ instance, linkKey }: Props) {
  const t = useT();
  const decide = useDecideWorkflow(linkKey);
  const [comment, setComment] = useState("");
  const [viewing, setViewing] = useState<{ doc: WorkflowDocumentResponse; url: string; pageUrl: string } | null>(null);
  const [status, setStatus] = useState<Status>(null);
  const offered = Object.values(instance.transitions_available)
    .flat()
    .map((s) => s.id);
  const canValidate = offered.includes("validated");
  const canRefuse = offered.includes("refused");
  const decision = instance.me?.decision ?? null;

  async function show(doc: WorkflowDocumentResponse) {
    try {
      const token = await workflowDocumentToken(linkKey, doc.id, "preview");
      // Office documents are shown as the file preview shows them without the download right: the
      // preview page of the PDF rendition's pages, opened with the same token.
      setViewing({ doc, url: `/api/preview/${doc.id}/content?token=${encodeURIComponent(token)}`, pageUrl: `/api/preview/${doc.id}?token=${encodeURIComponent(token)}` });
    } catch (e) {
      setStatus({ tone: "error", message: t("workflow.review.documentFailed", { reason: reasonOf(e, t) }) });
    }
  }

  async function download(doc: WorkflowDocumentResponse) {
    try {
      const token = await workflowDocumentToken(linkKey, doc.id, "download");
      const anchor = document.createElement("a");
      anchor.href = `/api/file/download?token=${encodeURIComponent(token)}`;
      anchor.download = "";
      anchor.click();
    } catch (e) {
      setStatus({ tone: "error", message: t("workflow.review.documentFailed", { reason: reasonOf(e, t) }) });
    }
  }

  function send(state: "validated" | "refused") {
    setStatus(null);
    decide.mutate(
      { state, comment: comment.trim() || undefined },
      {
        onSuccess: (next) => setStatus({ tone: "success", message: t(next.is_closed ? "workflow.review.recordedClosed" : "workflow.review.recorded") }),
        onError: (e) => setStatus({ tone: "error", message: t("workflow.review.failed", { reason: reasonOf(e, t) }) }),
      },
    );
  }

  return (
    <div className={styles.stack}>
      {instance.comment && (
        <div className={styles.stack}>
          <h2 className={styles.heading}>{t("workflow.review.message", { owner: instance.owner })}</h2>
          <p className={styles.message} data-testid="workflow-message">
            {instance.comment}
          </p>
        </div>
      )}
      {instance.documents.length > 0 && (
        <section className={styles.section} aria-labelledby={`wf-docs-${instance.id}`}>
          <h2 id={`wf-docs-${instance.id}`} className={styles.heading}>
            {t("workflow.review.documents")}
          </h2>
          <ul className={styles.documents}>
            {instance.documents.map((doc) => (
              <li key={doc.id} className={styles.document}>
                <span className={styles.documentName}>{doc.name}</span>
                <span className={styles.muted}>{formatBytes(doc.size)}</span>
                <Button size="small" variant="secondary" onClick={() => void show(doc)} aria-label={t("workflow.review.showName", { name: doc.name })}>
                  {t("workflow.review.show")}
                </Button>
                <Button size="small" variant="secondary" onClick={() => void download(doc)} aria-label={t("workflow.review.downloadName", { name: doc.name })}>
                  {t("workflow.review.download")}
                </Button>
              </li>
            ))}
          </ul>
        </section>
      )}
      {viewing && (
        <section className={styles.viewer} aria-label={t("preview.title", { name: viewing.doc.name })} data-testid="workflow-preview">
          <div className={styles.viewerHead}>
            <strong>{viewing.doc.name}</strong>
            <Button size="small" variant="ghost" onClick={() => setViewing(null)}>
              {t("common.close")}
            </Button>
          </div>
          <PreviewBody key={viewing.url} file={{ name: viewing.doc.name, mime: viewing.doc.mime }} url={viewing.url} pageUrl={viewing.pageUrl} />
        </section>
      )}
      {(canValidate || canRefuse) && (
        <fieldset className={styles.decision}>
          <legend>{t("workflow.review.decision")}</legend>
          <label className={styles.label} htmlFor={`wf-comment-${instance.id}`}>
            {t("workflow.review.comment")}
          </label>
          <textarea id={`wf-comment-${instance.id}`} className={styles.textarea} value={comment} maxLength={5000} onChange={(e) => setComment(e.target.value)} />
          <div className={styles.actions}>
            {canValidate && (
              <Button onClick={() => send("validated")} disabled={decide.isPending}>
                {t("workflow.review.validate")}
              </Button>
            )}
            {canRefuse && (
              <Button variant="danger" onClick={() => send("refused")} disabled={decide.isPending}>
                {t("workflow.review.refuse")}
              </Button>
            )}
          </div>
        </fieldset>
      )}
      {decision && (
        <p className={styles.muted} data-testid="workflow-decision">
          {t("workflow.review.yourDecision", { state: stateLabel(t, { id: decision }) })}
          {!instance.is_closed && ` ${t("workflow.review.waitingOthers")}`}
        </p>
      )}
      <FormStatus status={status} banner />
    </div>
  );
}

export function reasonOf(error: unknown, t: ReturnType<typeof useT>): string {
  if (error instanceof ApiError) return error.status === 0 ? t("error.network") : error.message;
  return t("error.generic");
}
