"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { api } from "@/lib/api-client";
import type { workflowInstanceResponse } from "@/lib/contracts/workflows";
import { useT } from "@/lib/i18n/provider";
import { workflowKeys } from "@/lib/queries/workflows";
import { reasonOf } from "./workflow-review";
import styles from "./workflows.module.css";

/**
 * Flux 2: the signer downloads the document (above), prints and signs it by hand, scans it, and
 * sends the scanned PDF here. It is stored beside the original and the request closes as signed.
 */
export function ScanUpload({ token }: { token: string }) {
  const t = useT();
  const queryClient = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [sending, setSending] = useState(false);
  const [status, setStatus] = useState<Status>(null);

  async function send() {
    if (!file) return setStatus({ tone: "error", message: t("workflow.scan.choose") });
    if (!/\.pdf$/i.test(file.name) && file.type !== "application/pdf") return setStatus({ tone: "error", message: t("workflow.scan.notPdf") });
    setSending(true);
    setStatus(null);
    try {
      const form = new FormData();
      form.append("targetFile", file, file.name);
      const instance = await api.upload<typeof workflowInstanceResponse>(`/api/workflow/instance/${encodeURIComponent(token)}/upload`, form);
      queryClient.setQueryData(workflowKeys.public(token), instance);
      setStatus({ tone: "success", message: t("workflow.scan.received") });
    } catch (e) {
      setStatus({ tone: "error", message: t("workflow.scan.failed", { reason: reasonOf(e, t) }) });
    } finally {
      setSending(false);
    }
  }

  return (
    <fieldset className={styles.decision}>
      <legend>{t("workflow.scan.title")}</legend>
      <p className={styles.muted} id={`${id}-hint`}>
        {t("workflow.scan.hint")}
      </p>
      <label className={styles.label} htmlFor={id}>
        {t("workflow.scan.file")}
      </label>
      <input ref={input} id={id} type="file" accept="application/pdf,.pdf" aria-describedby={`${id}-hint`} onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
      <div className={styles.actions}>
        <Button onClick={() => void send()} disabled={sending}>
          {t(sending ? "workflow.scan.sending" : "workflow.scan.send")}
        </Button>
      </div>
      <FormStatus status={status} banner />
    </fieldset>
  );
}
