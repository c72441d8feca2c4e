"use client";

import { useId, useState } from "react";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { FormStatus } from "@/components/ui/form-status";
import { TextField } from "@/components/ui/text-field";
import fieldStyles from "@/components/ui/field.module.css";
import { ALERT_PLACEHOLDERS } from "@/lib/contracts/emails";
import { useT } from "@/lib/i18n/provider";
import { useSaveTemplate, type Email } from "@/lib/queries/admin-mail";
import { describeAdminError } from "./describe-error";

/** Creates or edits an alert template (EM_TE_ALERT): a subject and a text with {{placeholders}}. */
export function MailTemplateDialog({ template, onClose }: { template: Email | null; onClose: () => void }) {
  const t = useT();
  const id = useId();
  const save = useSaveTemplate();
  const [object, setObject] = useState(template?.object ?? "");
  const [content, setContent] = useState(template?.content ?? "");
  const [error, setError] = useState<string | null>(null);

  async function submit() {
    setError(null);
    try {
      await save.mutateAsync({ id: template?.id, object, content });
      onClose();
    } catch (e) {
      setError(describeAdminError(e, t));
    }
  }

  return (
    <Dialog
      title={template ? t("admin.mail.editTemplate") : t("admin.mail.newTemplate")}
      closeLabel={t("common.close")}
      onClose={onClose}
      onSubmit={submit}
      footer={<DialogActions cancelLabel={t("common.cancel")} onCancel={onClose} submitLabel={t("common.save")} disabled={save.isPending} />}
    >
      <TextField label={t("admin.mail.subject")} value={object} onChange={(e) => setObject(e.target.value)} required maxLength={255} />
      <div className={fieldStyles.field}>
        <label htmlFor={id} className={fieldStyles.label}>
          {t("admin.mail.body")}
        </label>
        <textarea id={id} className={fieldStyles.control} rows={8} value={content} onChange={(e) => setContent(e.target.value)} aria-describedby={`${id}-hint`} />
        <p id={`${id}-hint`} className={fieldStyles.hint}>
          {t("admin.mail.placeholders", { list: ALERT_PLACEHOLDERS.map((p) => `{{${p}}}`).join(" ") })}
        </p>
      </div>
      <FormStatus status={error ? { tone: "error", message: error } : null} />
    </Dialog>
  );
}
