"use client";

import { useState } from "react";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { TextField } from "@/components/ui/text-field";
import { useT } from "@/lib/i18n/provider";
import { useAccount } from "@/lib/queries/account";
import type { FileResponse } from "@/lib/queries/files";
import { useCreateTemplate } from "@/lib/queries/templates";
import { describeFileError } from "../file-browser/format";
import styles from "./templates.module.css";

/** "Make a template" of a file: offered for new files in its folder and below, or (administrators) everywhere. */
export function TemplateCreateDialog({ file, onDone, onClose }: { file: FileResponse; onDone: () => void; onClose: () => void }) {
  const t = useT();
  const account = useAccount();
  const create = useCreateTemplate();
  const [name, setName] = useState(file.name);
  const [description, setDescription] = useState("");
  const [platform, setPlatform] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const isAdmin = account.data?.role === 3;

  function submit() {
    const trimmed = name.trim();
    if (!trimmed) return setError(t("common.required"));
    create.mutate({ fileId: file.id, name: trimmed, description, platform: isAdmin && platform }, { onSuccess: onDone, onError: (e) => setError(describeFileError(e, t)) });
  }

  return (
    <Dialog
      title={t("templates.makeTitle", { name: file.name })}
      closeLabel={t("common.close")}
      onClose={onClose}
      onSubmit={submit}
      footer={<DialogActions cancelLabel={t("common.cancel")} onCancel={onClose} submitLabel={t("templates.make")} disabled={create.isPending} />}
    >
      <TextField label={t("templates.nameLabel")} value={name} onChange={(e) => setName(e.target.value)} error={error} autoComplete="off" maxLength={255} />
      <TextField label={t("templates.description")} value={description} onChange={(e) => setDescription(e.target.value)} autoComplete="off" maxLength={2000} />
      {isAdmin && (
        <label className={styles.check}>
          <input type="checkbox" checked={platform} onChange={(e) => setPlatform(e.target.checked)} />
          {t("templates.platformOption")}
        </label>
      )}
    </Dialog>
  );
}
