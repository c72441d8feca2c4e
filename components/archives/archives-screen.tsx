"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { FolderPickerDialog } from "@/components/file-browser/folder-picker-dialog";
import { describeFileError, formatBytes, formatDate } from "@/components/file-browser/format";
import { PageHeader } from "@/components/page-header";
import { TrashConfirmDialog } from "@/components/trash/trash-confirm-dialog";
import styles from "@/components/trash/trash.module.css";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import type { MessageKey } from "@/lib/i18n/translate";
import { archiveDownloadUrl, archivesQuery, useDeleteArchive, useUnarchive, type ArchiveResponse } from "@/lib/queries/archives";
import { ArchiveEditDialog } from "./archive-edit-dialog";
import own from "./archives.module.css";

type Dialog = { type: "delete" | "restoreTo" | "edit"; archive: ArchiveResponse } | null;

const STATE_LABELS: Record<ArchiveResponse["state"], MessageKey> = { pending: "archives.statePending", archived: "archives.stateArchived", restoring: "archives.stateRestoring" };

/** The caller's archives: where each came from, its size in the archive, and restore (to its place or elsewhere), download, rename and comment, delete. */
export function ArchivesScreen() {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const toast = useToast();
  const archives = useQuery(archivesQuery());
  const unarchive = useUnarchive();
  const remove = useDeleteArchive();
  const [dialog, setDialog] = useState<Dialog>(null);
  const list = archives.data ?? [];
  const fail = (e: unknown) => toast({ tone: "error", message: t("files.actionFailed", { reason: describeFileError(e, t) }) });

  function restore(archive: ArchiveResponse) {
    unarchive.mutate({ archive }, { onSuccess: () => toast({ tone: "info", message: t("archives.restoring", { name: archive.name, place: archive.path_name }) }), onError: fail });
  }

  return (
    <div className={styles.screen}>
      <div className={styles.top}>
        <PageHeader title={t("archives.title")} subtitle={t("archives.subtitle")} />
      </div>
      {archives.isPending && <p className={styles.state}>{t("common.loading")}</p>}
      {archives.isError && (
        <div className={styles.stateBox} role="alert">
          <p>{t("error.generic")}</p>
          <Button onClick={() => archives.refetch()}>{t("error.retry")}</Button>
        </div>
      )}
      {archives.isSuccess && list.length === 0 && (
        <div className={styles.stateBox}>
          <p className={styles.stateTitle}>{t("archives.none")}</p>
          <p>{t("archives.noneHint")}</p>
        </div>
      )}
      {list.length > 0 && (
        <ul className={styles.list} aria-label={t("archives.title")}>
          {list.map((archive) => {
            const settled = archive.state === "archived";
            return (
              <li key={archive.id} className={styles.item} data-testid="archive-row">
                <div className={styles.main}>
                  <span className={styles.kind}>{t(archive.type === "file" ? "trash.fileLabel" : "trash.folderLabel")}</span>
                  <strong className={styles.name}>{archive.name}</strong>
                  <span className={styles.meta}>
                    {t("archives.origin")}: <span className={styles.origin}>{archive.path_name}</span>
                  </span>
                  <span className={styles.meta}>
                    {t("archives.archivedOn", { date: formatDate(archive.date, locale) })} · {formatBytes(archive.size, locale)}
                    {settled && archive.stored_size > 0 ? ` · ${t("archives.stored", { size: formatBytes(archive.stored_size, locale) })}` : ""}
                    {archive.type === "folder" ? ` · ${t("archives.contents", { files: archive.nb_files, folders: Math.max(0, archive.nb_folders - 1) })}` : ""}
                  </span>
                  {archive.comment && <span className={styles.meta}>{archive.comment}</span>}
                  <span className={styles.meta} role="status" data-testid="archive-state">
                    {t(STATE_LABELS[archive.state])}
                  </span>
                </div>
                <div className={styles.actions}>
                  <Button size="small" variant="secondary" disabled={!settled || unarchive.isPending} aria-label={t("archives.restoreName", { name: archive.name })} onClick={() => restore(archive)}>
                    {t("archives.restore")}
                  </Button>
                  <Button size="small" variant="ghost" disabled={!settled} aria-label={t("archives.restoreToName", { name: archive.name })} onClick={() => setDialog({ type: "restoreTo", archive })}>
                    {t("trash.restoreTo")}
                  </Button>
                  {archive.type === "file" && archive.state !== "restoring" && (
                    <a className={own.download} href={archiveDownloadUrl(archive)} download aria-label={t("archives.downloadName", { name: archive.name })}>
                      {t("files.download")}
                    </a>
                  )}
                  <Button size="small" variant="ghost" aria-label={t("archives.editName", { name: archive.name })} onClick={() => setDialog({ type: "edit", archive })}>
                    {t("archives.edit")}
                  </Button>
                  <Button size="small" variant="ghost" disabled={archive.state === "restoring"} aria-label={t("archives.deleteName", { name: archive.name })} onClick={() => setDialog({ type: "delete", archive })}>
                    {t("trash.deleteForGood")}
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      )}

      {dialog?.type === "delete" && (
        <TrashConfirmDialog
          title={t("archives.confirmDeleteTitle", { name: dialog.archive.name })}
          text={t("archives.confirmDeleteText")}
          confirmLabel={t("trash.deleteForGood")}
          onClose={() => setDialog(null)}
          onConfirm={async () => {
            await remove.mutateAsync(dialog.archive);
            toast({ tone: "info", message: t("archives.deleted", { name: dialog.archive.name }) });
          }}
        />
      )}
      {dialog?.type === "restoreTo" && (
        <FolderPickerDialog
          title={t("trash.restoreToTitle", { name: dialog.archive.name })}
          submitLabel={t("trash.restoreHere")}
          onPick={(folderId) => unarchive.mutateAsync({ archive: dialog.archive, parentId: folderId })}
          pending={unarchive.isPending}
          onDone={() => {
            setDialog(null);
            toast({ tone: "info", message: t("archives.restoringTo", { name: dialog.archive.name }) });
          }}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.type === "edit" && (
        <ArchiveEditDialog
          archive={dialog.archive}
          onClose={() => setDialog(null)}
          onDone={() => {
            setDialog(null);
            toast({ tone: "info", message: t("archives.saved") });
          }}
        />
      )}
    </div>
  );
}
