"use client";

import type { ReactNode } from "react";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { FormStatus } from "@/components/ui/form-status";
import { useDialogAction } from "@/components/use-dialog-action";
import { useT } from "@/lib/i18n/provider";
import type { Translate } from "@/lib/i18n/translate";

export type ConfirmDialogProps = {
  title: string;
  confirmLabel: string;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
  danger?: boolean;
  /** A refusal in words, as the screen's domain says it. */
  describe: (error: unknown, t: Translate) => string;
  children: ReactNode;
};

/** Asks before something that cannot be undone (Cancel has the focus); a refusal is shown in the dialog, which stays open. */
export function ConfirmDialog({ title, confirmLabel, onConfirm, onClose, danger = true, describe, children }: ConfirmDialogProps) {
  const t = useT();
  const { busy, error, run } = useDialogAction((e) => describe(e, t));
  const confirm = () => run(onConfirm, onClose);
  return (
    <Dialog
      title={title}
      closeLabel={t("common.close")}
      onClose={onClose}
      onSubmit={confirm}
      footer={<DialogActions cancelLabel={t("common.cancel")} onCancel={onClose} submitLabel={confirmLabel} disabled={busy} danger={danger} focusCancel />}
    >
      {children}
      <FormStatus status={error ? { tone: "error", message: error } : null} />
    </Dialog>
  );
}
