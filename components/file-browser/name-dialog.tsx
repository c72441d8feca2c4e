"use client";

import { useState, type FocusEvent } from "react";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { TextField } from "@/components/ui/text-field";
import { useT } from "@/lib/i18n/provider";

type Props = {
  title: string;
  submitLabel: string;
  initialName?: string;
  pending: boolean;
  /** Called with the trimmed, non-empty name; reports a refusal through `fail`. */
  onSubmit: (name: string, fail: (message: string) => void) => void;
  onClose: () => void;
  onFocus?: (e: FocusEvent<HTMLInputElement>) => void;
  /** The field's label, "Name" unless given. */
  label?: string;
};

/** The one dialog that asks for a name (new folder, rename, a tag for the selection). */
export function NameDialog({ title, submitLabel, initialName = "", pending, onSubmit, onClose, onFocus, label }: Props) {
  const t = useT();
  const [name, setName] = useState(initialName);
  const [error, setError] = useState<string | null>(null);

  function submit() {
    const trimmed = name.trim();
    if (!trimmed) return setError(t("common.required"));
    onSubmit(trimmed, setError);
  }

  return (
    <Dialog
      title={title}
      closeLabel={t("common.close")}
      onClose={onClose}
      onSubmit={submit}
      footer={<DialogActions cancelLabel={t("common.cancel")} onCancel={onClose} submitLabel={submitLabel} disabled={pending} />}
    >
      <TextField label={label ?? t("files.nameLabel")} value={name} onChange={(e) => setName(e.target.value)} onFocus={onFocus} error={error} autoComplete="off" maxLength={255} />
    </Dialog>
  );
}
