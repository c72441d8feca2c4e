"use client";

import { useState } from "react";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { TextField } from "@/components/ui/text-field";
import { useT } from "@/lib/i18n/provider";
import { useUpdateArchive, type ArchiveResponse } from "@/lib/queries/archives";
import { describeFileError } from "../file-browser/format";

/** Renames an archive (it comes back under that name) and sets its comment. */
export function ArchiveEditDialog({ archive, onDone, onClose }: { archive: ArchiveResponse; onDone: () => void; onClose: () => void }) {
  const t = useT();
  const update = useUpdateArchive();
  const [name, setName] = useState(archive.name);
  const [comment, setComment] = useState(archive.comment);
  const [error, setError] = useState<string | null>(null);

  function submit() {
    const trimmed = name.trim();
    if (!trimmed) return setError(t("common.required"));
    update.mutate({ archive, name: trimmed, comment }, { onSuccess: onDone, onError: (e) => setError(describeFileError(e, t)) });
  }

  return (
    <Dialog
      title={t("archives.editTitle", { name: archive.name })}
      closeLabel={t("common.close")}
      onClose={onClose}
      onSubmit={submit}
      footer={<DialogActions cancelLabel={t("common.cancel")} onCancel={onClose} submitLabel={t("archives.save")} disabled={update.isPending} />}
    >
      <TextField label={t("files.nameLabel")} value={name} onChange={(e) => setName(e.target.value)} error={error} autoComplete="off" maxLength={255} />
      <TextField label={t("archives.comment")} value={comment} onChange={(e) => setComment(e.target.value)} autoComplete="off" maxLength={10000} />
    </Dialog>
  );
}
