"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { FolderPickerDialog } from "@/components/file-browser/folder-picker-dialog";
import { describeFileError, formatBytes, formatDate } from "@/components/file-browser/format";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { trashQuery, useDeleteTrashItem, useEmptyTrash, useRestoreTrashItems, type TrashItem } from "@/lib/queries/trash";
import { TrashConfirmDialog } from "./trash-confirm-dialog";
import styles from "./trash.module.css";

type Confirm = { type: "delete"; item: TrashItem } | { type: "empty" } | { type: "restoreTo"; item: TrashItem } | null;

/** The caller's trash: where each item came from, restore it there or into a chosen folder, or delete it for good. */
export function TrashScreen() {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const toast = useToast();
  const trash = useQuery(trashQuery());
  const restore = useRestoreTrashItems();
  const deleteItem = useDeleteTrashItem();
  const empty = useEmptyTrash();
  const [confirm, setConfirm] = useState<Confirm>(null);
  const items = trash.data ?? [];

  const placeOf = (item: TrashItem) => (item.parent_id === 0 ? t("trash.topLevel") : item.path_name || "/");

  function restoreItem(item: TrashItem) {
    restore.mutate(
      { ids: [item.id] },
      {
        onSuccess: () => toast({ tone: "info", message: t("trash.restored", { name: item.name, place: placeOf(item) }) }),
        onError: (e) => toast({ tone: "error", message: t("files.actionFailed", { reason: describeFileError(e, t) }) }),
      },
    );
  }

  return (
    <div className={styles.screen}>
      <div className={styles.top}>
        <PageHeader title={t("trash.title")} subtitle={t("trash.subtitle")} />
        {items.length > 0 && (
          <Button variant="danger" onClick={() => setConfirm({ type: "empty" })}>
            {t("trash.empty")}
          </Button>
        )}
      </div>

      {trash.isPending && <p className={styles.state}>{t("trash.loading")}</p>}
      {trash.isError && (
        <div className={styles.stateBox} role="alert">
          <p>{t("trash.error")}</p>
          <Button onClick={() => trash.refetch()}>{t("error.retry")}</Button>
        </div>
      )}
      {trash.isSuccess && items.length === 0 && (
        <div className={styles.stateBox}>
          <p className={styles.stateTitle}>{t("trash.isEmpty")}</p>
          <p>{t("trash.isEmptyHint")}</p>
        </div>
      )}
      {items.length > 0 && (
        <ul className={styles.list} aria-label={t("trash.title")}>
          {items.map((item) => (
            <li key={item.id} className={styles.item}>
              <div className={styles.main}>
                <span className={styles.kind}>{t(item.is_file ? "trash.fileLabel" : "trash.folderLabel")}</span>
                <strong className={styles.name}>{item.name}</strong>
                <span className={styles.meta}>
                  {t("trash.colOrigin")}: <span className={styles.origin}>{placeOf(item)}</span>
                </span>
                <span className={styles.meta}>
                  {t("trash.colDeleted")}: {formatDate(item.deletion, locale)} · {formatBytes(item.size, locale)}
                </span>
              </div>
              <div className={styles.actions}>
                <Button size="small" variant="secondary" aria-label={t("trash.restoreName", { name: item.name })} onClick={() => restoreItem(item)}>
                  {t("trash.restore")}
                </Button>
                <Button size="small" variant="ghost" aria-label={t("trash.restoreToName", { name: item.name })} onClick={() => setConfirm({ type: "restoreTo", item })}>
                  {t("trash.restoreTo")}
                </Button>
                <Button size="small" variant="ghost" aria-label={t("trash.deleteName", { name: item.name })} onClick={() => setConfirm({ type: "delete", item })}>
                  {t("trash.deleteForGood")}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}

      {confirm?.type === "delete" && (
        <TrashConfirmDialog
          title={t("trash.confirmDeleteTitle", { name: confirm.item.name })}
          text={t("trash.confirmDeleteText")}
          confirmLabel={t("trash.deleteForGood")}
          onClose={() => setConfirm(null)}
          onConfirm={async () => {
            await deleteItem.mutateAsync(confirm.item.id);
            toast({ tone: "info", message: t("trash.deleted", { name: confirm.item.name }) });
          }}
        />
      )}
      {confirm?.type === "restoreTo" && (
        <FolderPickerDialog
          title={t("trash.restoreToTitle", { name: confirm.item.name })}
          submitLabel={t("trash.restoreHere")}
          onPick={(folderId) => restore.mutateAsync({ ids: [confirm.item.id], folderId })}
          pending={restore.isPending}
          onDone={() => {
            setConfirm(null);
            toast({ tone: "info", message: t("trash.restoredTo", { name: confirm.item.name }) });
          }}
          onClose={() => setConfirm(null)}
        />
      )}
      {confirm?.type === "empty" && (
        <TrashConfirmDialog
          title={t("trash.confirmEmptyTitle")}
          text={t("trash.confirmEmptyText", { count: items.length })}
          confirmLabel={t("trash.empty")}
          onClose={() => setConfirm(null)}
          onConfirm={async () => {
            await empty.mutateAsync();
            toast({ tone: "info", message: t("trash.emptied") });
          }}
        />
      )}
    </div>
  );
}
