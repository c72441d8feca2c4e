"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { TextField } from "@/components/ui/text-field";
import { useToast } from "@/components/ui/toast";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { htmlLang } from "@/lib/i18n/languages";
import { offeredTemplatesQuery, useCopyTemplate, useDeleteTemplate } from "@/lib/queries/templates";
import { describeFileError, formatBytes } from "../file-browser/format";
import styles from "./templates.module.css";

type Props = { folderId: number; onDone: (name: string) => void; onClose: () => void };

/** "New from template": pick one of the templates offered in this folder and name the new file (the bytes are shared, not copied). */
export function TemplateNewFileDialog({ folderId, onDone, onClose }: Props) {
  const t = useT();
  const toast = useToast();
  const locale = htmlLang(useLanguage());
  const offered = useQuery(offeredTemplatesQuery(folderId));
  const copy = useCopyTemplate();
  const remove = useDeleteTemplate();
  const [chosen, setChosen] = useState<number | null>(null);
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const templates = offered.data ?? [];
  const template = templates.find((x) => x.id === chosen) ?? null;

  function pick(id: number) {
    const next = templates.find((x) => x.id === id);
    // The name follows the choice until the person types their own.
    if (next && (!name || templates.some((x) => x.name === name))) setName(next.name);
    setChosen(id);
    setError(null);
  }

  function submit() {
    if (!template) return setError(t("templates.pickOne"));
    const trimmed = name.trim();
    if (!trimmed) return setError(t("common.required"));
    copy.mutate({ templateId: template.id, parentId: folderId, name: trimmed }, { onSuccess: (file) => onDone(file.name), onError: (e) => setError(describeFileError(e, t)) });
  }

  return (
    <Dialog
      title={t("templates.newTitle")}
      closeLabel={t("common.close")}
      onClose={onClose}
      onSubmit={submit}
      footer={<DialogActions cancelLabel={t("common.cancel")} onCancel={onClose} submitLabel={t("files.create")} disabled={copy.isPending || templates.length === 0} />}
    >
      {offered.isPending ? (
        <p className={styles.empty}>{t("common.loading")}</p>
      ) : offered.isError ? (
        <p role="alert" className={styles.empty}>
          {t("error.generic")}
        </p>
      ) : templates.length === 0 ? (
        <p className={styles.empty}>{t("templates.none")}</p>
      ) : (
        <fieldset className={styles.list}>
          <legend className="visually-hidden">{t("templates.choose")}</legend>
          {templates.map((x) => (
            <label key={x.id} className={styles.option} data-testid="template-option">
              <input type="radio" name="template" value={x.id} checked={chosen === x.id} onChange={() => pick(x.id)} />
              <span className={styles.optionText}>
                <span className={styles.optionName}>{x.name}</span>
                <span className={styles.optionMeta}>
                  {[x.description, formatBytes(x.size, locale), x.parent_id === 0 ? t("templates.platformWide") : null].filter(Boolean).join(" · ")}
                </span>
              </span>
              {x.can_edit && (
                <Button
                  size="small"
                  variant="ghost"
                  className={styles.remove}
                  aria-label={t("templates.removeNamed", { name: x.name })}
                  disabled={remove.isPending}
                  onClick={() =>
                    remove.mutate(x.id, {
                      onSuccess: () => {
                        if (chosen === x.id) setChosen(null);
                        toast({ tone: "info", message: t("templates.removed", { name: x.name }) });
                      },
                      onError: (e) => toast({ tone: "error", message: t("files.actionFailed", { reason: describeFileError(e, t) }) }),
                    })
                  }
                >
                  {t("templates.remove")}
                </Button>
              )}
            </label>
          ))}
        </fieldset>
      )}
      {templates.length > 0 && <TextField label={t("files.nameLabel")} value={name} onChange={(e) => setName(e.target.value)} error={error} autoComplete="off" maxLength={255} />}
    </Dialog>
  );
}
