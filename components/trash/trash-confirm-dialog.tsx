"use client";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { describeFileError } from "@/components/file-browser/format";

type Props = { title: string; text: string; confirmLabel: string; onConfirm: () => Promise<unknown>; onClose: () => void };

/** "Delete for good" and "Empty trash" ask first: neither can be undone. */
export function TrashConfirmDialog({ text, ...props }: Props) {
  return (
    <ConfirmDialog {...props} describe={describeFileError}>
      <p style={{ margin: 0 }}>{text}</p>
    </ConfirmDialog>
  );
}
