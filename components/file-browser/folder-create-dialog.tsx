"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { TextField } from "@/components/ui/text-field";
import { useT } from "@/lib/i18n/provider";
import { useCreateFolder } from "@/lib/queries/files";
import { describeFileError } from "./format";

export function FolderCreateDialog({ parentId, onDone, onClose }: { parentId: number; onDone: () => void; onClose: () => void }) {
  const t = useT();
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const create = useCreateFolder();

  function submit() {
    if (!name.trim()) return setError(t("common.required"));
    create.mutate({ name: name.trim(), parentId }, { onSuccess: onDone, onError: (e) => setError(describeFileError(e, t)) });
  }

  return (
    <Dialog
      title={t("files.newFolderTitle")}
      closeLabel={t("common.close")}
      onClose={onClose}
      onSubmit={submit}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" disabled={create.isPending}>
            {t("files.create")}
          </Button>
        </>
      }
    >
      <TextField label={t("files.nameLabel")} value={name} onChange={(e) => setName(e.target.value)} error={error} autoComplete="off" maxLength={255} />
    </Dialog>
  );
}
