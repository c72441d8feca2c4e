"use client";

import { useState } from "react";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { FormStatus } from "@/components/ui/form-status";
import { describeFileError } from "@/components/file-browser/format";
import { useT } from "@/lib/i18n/provider";

type Props = { title: string; text: string; confirmLabel: string; onConfirm: () => Promise<unknown>; onClose: () => void };

/** "Delete for good" and "Empty trash" ask first: neither can be undone. */
export function TrashConfirmDialog({ title, text, confirmLabel, onConfirm, onClose }: Props) {
  const t = useT();
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    setBusy(true);
    try {
      await onConfirm();
      onClose();
    } catch (e) {
      setError(describeFileError(e, t));
      setBusy(false);
    }
  }

  return (
    <Dialog
      title={title}
      closeLabel={t("common.close")}
      onClose={onClose}
      onSubmit={confirm}
      footer={<DialogActions cancelLabel={t("common.cancel")} onCancel={onClose} submitLabel={confirmLabel} disabled={isBusy} danger focusCancel />}
    >
      <p style={{ margin: 0 }}>{text}</p>
      <FormStatus status={error ? { tone: "error", message: error } : null} />
    </Dialog>
  );
}
