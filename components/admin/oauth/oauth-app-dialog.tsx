"use client";

import { useId, useState } from "react";
import { OAUTH2_AREAS } from "@/components/oauth2/scope-words";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import fieldStyles from "@/components/ui/field.module.css";
import { FormStatus } from "@/components/ui/form-status";
import { Select } from "@/components/ui/select";
import { TextField } from "@/components/ui/text-field";
import { ApiError } from "@/lib/api-client";
import type { MessageKey } from "@/lib/i18n/translate";
import { useT } from "@/lib/i18n/provider";
import { useCreateOAuthApp, useUpdateOAuthApp, type OAuthApp, type OAuthAppInput } from "@/lib/queries/oauth2";
import styles from "../admin.module.css";
import { describeAdminError } from "../describe-error";
import oauthStyles from "./oauth.module.css";

type Access = "" | "read" | "readwrite";

/** The scope string of api.md from the form: `all`, or one access per area, and `offline`. */
function scopeOf(all: boolean, offline: boolean, access: Record<string, Access>): string {
  const scopes = all ? ["all"] : OAUTH2_AREAS.flatMap((area) => (access[area] ? [`${area}.${access[area]}`] : []));
  return [...scopes, ...(offline ? ["offline"] : [])].join(" ");
}

function accessOf(scope: string): Record<string, Access> {
  const parts = new Set(scope.split(" "));
  return Object.fromEntries(OAUTH2_AREAS.map((area) => [area, parts.has(`${area}.readwrite`) ? "readwrite" : parts.has(`${area}.read`) ? "read" : ""]));
}

/** Create (the answer carries the secret, shown by the caller) or edit an application; `onDone` gets the server's answer. */
export function OAuthAppDialog({ app, onClose, onDone }: { app: OAuthApp | null; onClose: () => void; onDone: (saved: OAuthApp) => void }) {
  const t = useT();
  const id = useId();
  const create = useCreateOAuthApp();
  const update = useUpdateOAuthApp();
  const [name, setName] = useState(app?.name ?? "");
  const [description, setDescription] = useState(app?.description ?? "");
  const [editor, setEditor] = useState(app?.editor ?? "");
  const [editorUrl, setEditorUrl] = useState(app?.editor_url ?? "");
  const [type, setType] = useState<0 | 1>((app?.type as 0 | 1) ?? 0);
  const [kind, setKind] = useState<OAuthAppInput["kind"]>(app?.kind ?? "web");
  const [all, setAll] = useState(app?.scope.split(" ").includes("all") ?? false);
  const [offline, setOffline] = useState(app?.scope.split(" ").includes("offline") ?? false);
  const [access, setAccess] = useState<Record<string, Access>>(accessOf(app?.scope ?? "files.read"));
  const [callbacks, setCallbacks] = useState((app?.callbacks_uris ?? []).join("\n"));
  const [error, setError] = useState<string | null>(null);
  const busy = create.isPending || update.isPending;

  async function submit() {
    setError(null);
    const input: OAuthAppInput = {
      name: name.trim(),
      description: description.trim() || null,
      editor: editor.trim() || null,
      editor_url: editorUrl.trim() || null,
      type,
      kind,
      scope: scopeOf(all, offline, access),
      callbacks_uris: callbacks.split(/\s+/).filter(Boolean),
    };
    try {
      onDone(app ? await update.mutateAsync({ clientId: app.client_id, input }) : await create.mutateAsync(input));
    } catch (e) {
      const fields = e instanceof ApiError ? e.fields : [];
      setError(fields.length ? `${describeAdminError(e, t)} (${fields.join(", ")})` : describeAdminError(e, t));
    }
  }

  return (
    <Dialog
      title={app ? t("admin.oauth.editTitle", { app: app.name }) : t("admin.oauth.new")}
      closeLabel={t("admin.oauth.close")}
      onClose={onClose}
      onSubmit={submit}
      footer={<DialogActions cancelLabel={t("admin.oauth.cancel")} onCancel={onClose} submitLabel={app ? t("admin.oauth.save") : t("admin.oauth.create")} disabled={busy} />}
    >
      <div className={styles.form}>
        <TextField label={t("admin.oauth.name")} value={name} onChange={(e) => setName(e.target.value)} required maxLength={255} />
        <TextField label={t("admin.oauth.description")} value={description} onChange={(e) => setDescription(e.target.value)} maxLength={2000} />
        <div className={styles.row}>
          <TextField label={t("admin.oauth.editor")} value={editor} onChange={(e) => setEditor(e.target.value)} maxLength={255} />
          <TextField label={t("admin.oauth.editorUrl")} type="url" value={editorUrl} onChange={(e) => setEditorUrl(e.target.value)} maxLength={2000} />
        </div>
        <div className={styles.row}>
          <Select
            label={t("admin.oauth.type")}
            value={String(type)}
            onChange={(e) => setType(e.target.value === "1" ? 1 : 0)}
            options={[
              { value: "0", label: t("admin.oauth.type.0") },
              { value: "1", label: t("admin.oauth.type.1") },
            ]}
          />
          <Select
            label={t("admin.oauth.kind")}
            value={kind}
            onChange={(e) => setKind(e.target.value as OAuthAppInput["kind"])}
            options={(["web", "mobile", "mail_connector"] as const).map((k) => ({ value: k, label: t(`admin.oauth.kind.${k}`) }))}
          />
        </div>
        <fieldset className={oauthStyles.scopes}>
          <legend>{t("admin.oauth.scopes")}</legend>
          <p className={fieldStyles.hint}>{t("admin.oauth.scopesHint")}</p>
          <label className={styles.check}>
            <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} />
            {t("oauth2.scope.all")}
          </label>
          {!all && (
            <div className={oauthStyles.areas}>
              {OAUTH2_AREAS.map((area) => {
                const areaWords = t(`oauth2.area.${area}` as MessageKey);
                return (
                  <label key={area} className={oauthStyles.area}>
                    <span>{areaWords}</span>
                    <select
                      className={`${fieldStyles.control} ${fieldStyles.select}`}
                      aria-label={t("admin.oauth.scopeAreaLabel", { area: areaWords })}
                      value={access[area]}
                      onChange={(e) => setAccess({ ...access, [area]: e.target.value as Access })}
                    >
                      <option value="">{t("admin.oauth.scopeNone")}</option>
                      <option value="read">{t("admin.oauth.scopeRead")}</option>
                      <option value="readwrite">{t("admin.oauth.scopeReadwrite")}</option>
                    </select>
                  </label>
                );
              })}
            </div>
          )}
          <label className={styles.check}>
            <input type="checkbox" checked={offline} onChange={(e) => setOffline(e.target.checked)} />
            {t("oauth2.scope.offline")}
          </label>
        </fieldset>
        <div className={fieldStyles.field}>
          <label htmlFor={id} className={fieldStyles.label}>
            {t("admin.oauth.callbacks")}
          </label>
          <textarea id={id} className={fieldStyles.control} rows={3} value={callbacks} onChange={(e) => setCallbacks(e.target.value)} aria-describedby={`${id}-hint`} spellCheck={false} />
          <p id={`${id}-hint`} className={fieldStyles.hint}>
            {t("admin.oauth.callbacksHint")}
          </p>
        </div>
        <FormStatus status={error ? { tone: "error", message: error } : null} />
      </div>
    </Dialog>
  );
}
