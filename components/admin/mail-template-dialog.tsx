"use client";

import { useQuery } from "@tanstack/react-query";
import { useId, useRef, useState } from "react";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { FormStatus } from "@/components/ui/form-status";
import { Select } from "@/components/ui/select";
import { TextField } from "@/components/ui/text-field";
import fieldStyles from "@/components/ui/field.module.css";
import { ApiError } from "@/lib/api-client";
import { ALERT_PLACEHOLDERS } from "@/lib/contracts/emails";
import { LANGUAGE_ENDONYMS, UI_LANGUAGES } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import type { Translate } from "@/lib/i18n/translate";
import { templatePreviewQuery, useSaveTemplate, type Email } from "@/lib/queries/admin-mail";
import styles from "./admin.module.css";
import { describeAdminError } from "./describe-error";
import { useDebounced } from "./people/shared";

type Field = HTMLInputElement | HTMLTextAreaElement;
type PlaceholderDetail = { path?: string; code?: string; placeholders?: string[] };

/**
 * Creates or edits an alert template (EM_TE_ALERT): a subject and a text with {{placeholders}}.
 * The placeholders an alert fills are listed and inserted where the cursor was; the preview is
 * the server's own rendering (POST /api/email/preview) with sample values, its HTML shown in a
 * sandboxed frame (no script, no access to this page). An unknown placeholder is named from the
 * server's answer, in the interface's language.
 */
export function MailTemplateDialog({ template, onClose }: { template: Email | null; onClose: () => void }) {
  const t = useT();
  const id = useId();
  const save = useSaveTemplate();
  const [object, setObject] = useState(template?.object ?? "");
  const [content, setContent] = useState(template?.content ?? "");
  const [language, setLanguage] = useState<string>(useLanguage());
  const [error, setError] = useState<string | null>(null);
  const lastField = useRef<Field | null>(null);
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const input = useDebounced({ object, content, language }, 400);
  const preview = useQuery(templatePreviewQuery(input));

  async function submit() {
    setError(null);
    try {
      await save.mutateAsync({ id: template?.id, object, content });
      onClose();
    } catch (e) {
      setError(describeTemplateError(e, t));
    }
  }

  /** A change of the text makes the last refusal stale: the preview names what is still wrong. */
  function edit(set: (value: string) => void, value: string) {
    set(value);
    setError(null);
  }

  /** Puts `{{name}}` where the cursor was in the subject or the text (the text by default). */
  function insert(name: string) {
    const field = lastField.current ?? bodyRef.current;
    if (!field) return;
    const token = `{{${name}}}`;
    const value = field.value;
    const start = field.selectionStart ?? value.length;
    const end = field.selectionEnd ?? start;
    const next = value.slice(0, start) + token + value.slice(end);
    edit(field === bodyRef.current ? setContent : setObject, next);
    requestAnimationFrame(() => {
      field.focus();
      field.setSelectionRange(start + token.length, start + token.length);
    });
  }

  const remember = (e: { currentTarget: Field }) => {
    lastField.current = e.currentTarget;
  };
  const previewError = preview.isError ? describeTemplateError(preview.error, t) : null;

  return (
    <Dialog
      wide
      title={template ? t("admin.mail.editTemplate") : t("admin.mail.newTemplate")}
      closeLabel={t("common.close")}
      onClose={onClose}
      onSubmit={submit}
      footer={<DialogActions cancelLabel={t("common.cancel")} onCancel={onClose} submitLabel={t("common.save")} disabled={save.isPending} />}
    >
      <div className={styles.editor}>
        <div className={styles.editorFields}>
          <TextField label={t("admin.mail.subject")} value={object} onChange={(e) => edit(setObject, e.target.value)} onFocus={remember} onSelect={remember} required maxLength={255} />
          <div className={fieldStyles.field}>
            <label htmlFor={id} className={fieldStyles.label}>
              {t("admin.mail.body")}
            </label>
            <textarea ref={bodyRef} id={id} className={fieldStyles.control} rows={9} value={content} onChange={(e) => edit(setContent, e.target.value)} onFocus={remember} onSelect={remember} aria-describedby={`${id}-hint`} />
            <p id={`${id}-hint`} className={fieldStyles.hint}>
              {t("admin.mail.placeholdersHint")}
            </p>
          </div>
          <ul className={styles.placeholders} aria-label={t("admin.mail.placeholdersAllowed")}>
            {ALERT_PLACEHOLDERS.map((name) => (
              <li key={name}>
                <button type="button" className={styles.placeholder} onClick={() => insert(name)} aria-label={t("admin.mail.insertPlaceholder", { name: `{{${name}}}` })}>
                  <code>{`{{${name}}}`}</code>
                  <span className={styles.muted}>{t(`admin.mail.placeholder.${name}`)}</span>
                </button>
              </li>
            ))}
          </ul>
          <FormStatus status={error ? { tone: "error", message: error } : null} />
        </div>
        <section className={styles.preview} aria-label={t("admin.mail.preview")}>
          <div className={styles.previewHead}>
            <h3>{t("admin.mail.preview")}</h3>
            <Select label={t("admin.mail.previewLanguage")} value={language} onChange={(e) => setLanguage(e.target.value)} options={UI_LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_ENDONYMS[l], lang: l }))} />
          </div>
          <p className={styles.muted}>{t("admin.mail.previewHint")}</p>
          {previewError && (
            <p className={styles.error} role="alert" data-testid="template-problem">
              {previewError}
            </p>
          )}
          {preview.data && (
            <>
              <p className={styles.previewSubject} data-testid="preview-subject">
                <span className={styles.muted}>{t("admin.mail.subject")}: </span>
                {preview.data.subject}
              </p>
              {/* sandbox="" : no script, no forms, no same origin; the HTML is the server's escaped rendering. */}
              <iframe className={styles.previewFrame} sandbox="" srcDoc={preview.data.html} title={t("admin.mail.previewFrame")} data-testid="preview-frame" />
            </>
          )}
          {!preview.data && !previewError && <p className={styles.muted}>{t("common.loading")}</p>}
        </section>
      </div>
    </Dialog>
  );
}

/** The server's refusal in the interface's language: each unknown placeholder named, with where it is. */
function describeTemplateError(error: unknown, t: Translate): string {
  const details = error instanceof ApiError && Array.isArray(error.details) ? (error.details as PlaceholderDetail[]) : [];
  const unknown = details.filter((d) => d.code === "unknown_placeholder" && Array.isArray(d.placeholders));
  if (unknown.length === 0) return describeAdminError(error, t);
  const where = unknown.map((d) =>
    t("admin.mail.unknownPlaceholder", {
      names: d.placeholders!.map((n) => `{{${n}}}`).join(", "),
      field: t(d.path === "object" ? "admin.mail.subject" : "admin.mail.body"),
    }),
  );
  return `${where.join(" ")} ${t("admin.mail.allowedPlaceholders", { list: ALERT_PLACEHOLDERS.map((n) => `{{${n}}}`).join(" ") })}`;
}
