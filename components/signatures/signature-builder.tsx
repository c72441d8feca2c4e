"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useRef, useState, type FormEvent } from "react";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { Select } from "@/components/ui/select";
import { TextField } from "@/components/ui/text-field";
import { useToast } from "@/components/ui/toast";
import { SIGNATURE_MODES, type SignatureMode } from "@/lib/contracts/signatures";
import { useT } from "@/lib/i18n/provider";
import type { MessageKey } from "@/lib/i18n/translate";
import { rootsQuery } from "@/lib/queries/files";
import {
  signatureQuery,
  useActivateSignature,
  useAddDocument,
  useDeleteDocument,
  useDeleteSignature,
  useUpdateSignature,
  useUploadDocument,
  type SignatureResponse,
  type SignatureSettings,
} from "@/lib/queries/signatures";
import { BuilderActors } from "./builder-actors";
import { describeSignatureError } from "./describe-error";
import { DocumentPickerDialog } from "./document-picker-dialog";
import { FieldEditor } from "./field-editor";
import { TemplateSaveButton } from "./template-save-button";
import styles from "./signatures.module.css";

const MODE_LABELS: Record<SignatureMode, MessageKey> = {
  standard: "signatures.mode.standard",
  parallel: "signatures.mode.parallel",
  mass: "signatures.mode.mass",
};

/** The draft request being prepared: documents, actors, fields on the pages, settings, then Send. */
export function SignatureBuilder({ id }: { id: number }) {
  const t = useT();
  const request = useQuery(signatureQuery(id));
  if (request.isPending) return <p className={styles.muted}>{t("common.loading")}</p>;
  if (request.isError)
    return (
      <div className={styles.stateBox} role="alert">
        <p>{describeSignatureError(request.error, t)}</p>
        <Link href="/signatures">{t("signatures.backToList")}</Link>
      </div>
    );
  if (request.data.status !== "draft")
    return (
      <div className={styles.screen}>
        <PageHeader title={request.data.name} />
        <p className={styles.stateBox}>
          {t("signatures.builder.notDraft")} <Link href={`/signatures/${id}`}>{t("signatures.builder.openRequest")}</Link>
        </p>
      </div>
    );
  return <Builder request={request.data} />;
}

function Builder({ request }: { request: SignatureResponse }) {
  const t = useT();
  const router = useRouter();
  const toast = useToast();
  const update = useUpdateSignature(request.id);
  const activate = useActivateSignature(request.id);
  const remove = useDeleteSignature();
  const [status, setStatus] = useState<Status>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [settings, setSettings] = useState<SignatureSettings>({});
  const [nameDraft, setNameDraft] = useState<string | null>(null);
  const dirty = Object.keys(settings).length > 0;

  async function send() {
    setStatus(null);
    try {
      if (dirty) await update.mutateAsync(settings);
      setSettings({});
      await activate.mutateAsync();
      toast({ tone: "info", message: t("signatures.builder.sent", { name: request.name }) });
      router.push(`/signatures/${request.id}`);
    } catch (e) {
      setStatus({ tone: "error", message: describeSignatureError(e, t) });
    }
  }

  function saveName() {
    const name = nameDraft?.trim();
    if (nameDraft === null || !name || name === request.name) return setNameDraft(null);
    update.mutate({ name }, { onSuccess: () => setNameDraft(null), onError: (e) => setStatus({ tone: "error", message: describeSignatureError(e, t) }) });
  }

  return (
    <div className={styles.screen}>
      <div className={styles.top}>
        <PageHeader title={t("signatures.builder.title", { name: request.name })} subtitle={t("signatures.builder.subtitle")} />
        <Link href="/signatures" className={styles.backLink}>
          {t("signatures.backToList")}
        </Link>
      </div>
      <TextField
        className={styles.nameField}
        label={t("signatures.field.name")}
        value={nameDraft ?? request.name}
        maxLength={255}
        onChange={(e) => setNameDraft(e.target.value)}
        onBlur={saveName}
        onKeyDown={(e) => e.key === "Enter" && saveName()}
      />
      <Card title={t("signatures.builder.documents")} description={t("signatures.builder.documentsHint")}>
        <BuilderDocuments request={request} />
      </Card>
      <Card title={t("signatures.builder.actors")} description={t("signatures.builder.actorsHint")}>
        <BuilderActors request={request} />
      </Card>
      <Card title={t("signatures.builder.fields")} description={t("signatures.builder.fieldsHint")}>
        <FieldEditor request={request} />
      </Card>
      <Card title={t("signatures.builder.settings")}>
        <BuilderSettings request={request} settings={settings} onChange={setSettings} />
      </Card>
      <div className={styles.sendBar}>
        <FormStatus status={status} banner />
        <div className={styles.actions}>
          <Button onClick={send} disabled={activate.isPending || update.isPending} data-testid="send-request">
            {activate.isPending ? t("signatures.builder.sending") : t("signatures.builder.send")}
          </Button>
          <TemplateSaveButton signatureId={request.id} disabled={request.documents.length === 0} />
          <Button variant="ghost" onClick={() => setConfirmDelete(true)}>
            {t("signatures.builder.deleteDraft")}
          </Button>
        </div>
      </div>
      {confirmDelete && (
        <Dialog
          title={t("signatures.builder.deleteTitle")}
          closeLabel={t("common.close")}
          onClose={() => setConfirmDelete(false)}
          onSubmit={() =>
            remove.mutate(request.id, {
              onSuccess: () => {
                toast({ tone: "info", message: t("signatures.builder.deleted") });
                router.push("/signatures");
              },
              onError: (e) => {
                setConfirmDelete(false);
                setStatus({ tone: "error", message: describeSignatureError(e, t) });
              },
            })
          }
          footer={<DialogActions cancelLabel={t("common.cancel")} onCancel={() => setConfirmDelete(false)} submitLabel={t("signatures.builder.deleteDraft")} danger focusCancel disabled={remove.isPending} />}
        >
          <p>{t("signatures.builder.deleteText", { name: request.name })}</p>
        </Dialog>
      )}
    </div>
  );
}

/** The PDFs to sign: picked from the spaces, or uploaded from the computer into My files. */
function BuilderDocuments({ request }: { request: SignatureResponse }) {
  const t = useT();
  const roots = useQuery(rootsQuery());
  const privateRootId = roots.data?.find((r) => r.type === "private")?.id;
  const addDocument = useAddDocument(request.id);
  const deleteDocument = useDeleteDocument(request.id);
  const upload = useUploadDocument(request.id);
  const [picking, setPicking] = useState(false);
  const [status, setStatus] = useState<Status>(null);
  const input = useRef<HTMLInputElement>(null);

  function uploadFiles(files: FileList | null) {
    const file = files?.[0];
    if (!file || privateRootId === undefined) return;
    setStatus({ tone: "info", message: t("signatures.builder.uploading", { name: file.name }) });
    upload.mutate(
      { file, folderId: privateRootId },
      { onSuccess: () => setStatus({ tone: "success", message: t("signatures.builder.uploaded", { name: file.name }) }), onError: (e) => setStatus({ tone: "error", message: describeSignatureError(e, t) }) },
    );
  }

  return (
    <div className={styles.stack}>
      {request.documents.length === 0 ? (
        <p className={styles.muted}>{t("signatures.builder.noDocument")}</p>
      ) : (
        <ul className={styles.documentList} aria-label={t("signatures.builder.documents")}>
          {request.documents.map((document) => (
            <li key={document.id} className={styles.documentRow} data-testid="builder-document">
              <span>
                <strong>{document.name}</strong> <span className={styles.muted}>{t("signatures.builder.pages", { count: document.pages.length })}</span>
              </span>
              <Button
                size="small"
                variant="ghost"
                disabled={deleteDocument.isPending}
                onClick={() => deleteDocument.mutate(document.id, { onError: (e) => setStatus({ tone: "error", message: describeSignatureError(e, t) }) })}
                aria-label={t("signatures.builder.removeDocument", { name: document.name })}
              >
                {t("signatures.remove")}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div className={styles.actions}>
        <Button size="small" variant="secondary" onClick={() => setPicking(true)}>
          {t("signatures.builder.pickDocument")}
        </Button>
        <Button size="small" variant="secondary" onClick={() => input.current?.click()} disabled={upload.isPending || privateRootId === undefined}>
          {t("signatures.builder.uploadDocument")}
        </Button>
        <input
          ref={input}
          type="file"
          accept="application/pdf,.pdf"
          hidden
          aria-label={t("signatures.builder.uploadDocument")}
          data-testid="document-upload-input"
          onChange={(e) => {
            uploadFiles(e.target.files);
            e.target.value = "";
          }}
        />
      </div>
      <p className={styles.hint}>{t("signatures.builder.uploadHint")}</p>
      <FormStatus status={status} />
      {picking && <DocumentPickerDialog onPick={(fileId) => addDocument.mutateAsync(fileId)} onClose={() => setPicking(false)} />}
    </div>
  );
}

/** Mode, reminders and expiry: kept in the form until saved, and saved before sending. */
function BuilderSettings({ request, settings, onChange }: { request: SignatureResponse; settings: SignatureSettings; onChange: (settings: SignatureSettings) => void }) {
  const t = useT();
  const update = useUpdateSignature(request.id);
  const [status, setStatus] = useState<Status>(null);
  const value = { ...request, ...settings };
  const expiry = value.expiration_date ? toDateInput(value.expiration_date) : "";

  function save(event: FormEvent) {
    event.preventDefault();
    update.mutate(settings, {
      onSuccess: () => {
        onChange({});
        setStatus({ tone: "success", message: t("common.saved") });
      },
      onError: (e) => setStatus({ tone: "error", message: describeSignatureError(e, t) }),
    });
  }

  return (
    <form className={styles.settingsForm} onSubmit={save} noValidate>
      <Select
        label={t("signatures.settings.mode")}
        hint={t(`signatures.mode.${value.mode}Hint` as MessageKey)}
        value={value.mode}
        onChange={(e) => onChange({ ...settings, mode: e.target.value as SignatureMode })}
        options={SIGNATURE_MODES.map((mode) => ({ value: mode, label: t(MODE_LABELS[mode]) }))}
      />
      <TextField
        label={t("signatures.settings.reminders")}
        hint={t("signatures.settings.remindersHint")}
        type="number"
        min={0}
        max={365}
        value={value.reminder_day ?? ""}
        onChange={(e) => onChange({ ...settings, reminder_day: e.target.value === "" ? null : Math.max(0, Math.min(365, Math.floor(Number(e.target.value)))) })}
      />
      <TextField
        label={t("signatures.settings.expiry")}
        hint={t("signatures.settings.expiryHint")}
        type="date"
        min={toDateInput(new Date().toISOString())}
        value={expiry}
        onChange={(e) => onChange({ ...settings, expiration_date: e.target.value ? endOfDay(e.target.value) : null })}
      />
      <TextField
        label={t("signatures.settings.subject")}
        hint={t("signatures.settings.subjectHint")}
        maxLength={200}
        value={value.subject ?? ""}
        onChange={(e) => onChange({ ...settings, subject: e.target.value })}
        data-testid="invitation-subject"
      />
      <label className={styles.textareaField}>
        <span className={styles.textareaLabel}>{t("signatures.settings.message")}</span>
        <textarea
          className={styles.textarea}
          rows={4}
          maxLength={2000}
          value={value.message ?? ""}
          onChange={(e) => onChange({ ...settings, message: e.target.value })}
          data-testid="invitation-message"
        />
        <span className={styles.muted}>{t("signatures.settings.messageHint")}</span>
      </label>
      <label className={styles.check}>
        <input type="checkbox" checked={value.send_copy === 1} onChange={(e) => onChange({ ...settings, send_copy: e.target.checked ? 1 : 0 })} />
        {t("signatures.settings.sendCopy")}
      </label>
      <div className={styles.actions}>
        <Button type="submit" variant="secondary" size="small" disabled={update.isPending || Object.keys(settings).length === 0}>
          {t("signatures.settings.save")}
        </Button>
      </div>
      <FormStatus status={status} />
    </form>
  );
}

/** An ISO instant as the local day of a date input. */
function toDateInput(iso: string): string {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A picked day: the link works until the end of that day, where the initiator is. */
const endOfDay = (day: string) => new Date(`${day}T23:59:59`).toISOString();
