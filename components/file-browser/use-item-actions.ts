"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { previewKind } from "@/components/file-preview/preview-kind";
import { useToast } from "@/components/ui/toast";
import { useT } from "@/lib/i18n/provider";
import { useArchiveItem } from "@/lib/queries/archives";
import { downloadUrl, useDeleteItems, type FileResponse, type Item } from "@/lib/queries/files";
import { starKey, starredKeys, starsQuery, useToggleStar } from "@/lib/queries/stars";
import { useRestoreTrashItems } from "@/lib/queries/trash";
import { zipUrl } from "@/lib/queries/zip";
import { describeFileError } from "./format";
import { actionsFor } from "./item-actions";
import type { Action } from "./item-menu";
import type { Selection } from "./use-selection";

/** The dialog open over the browser, with what it acts on. */
export type Dialog =
  | { type: "new" | "fromTemplate" }
  | { type: "rename" | "share" | "dropLink"; item: Item }
  | { type: "template"; item: Item & { kind: "file" } }
  | { type: "move" | "copy" | "tag" | "startValidation"; items: Item[] }
  | null;

/** One file's bytes, or the zip of a folder or of several items. */
function download(list: Item[]) {
  const link = document.createElement("a");
  link.href = list.length === 1 && list[0].kind === "file" ? downloadUrl(list[0]) : zipUrl(list);
  link.download = "";
  link.click();
}

/**
 * The actions on the selection and what they open: the context menu, the dialogs, the preview and
 * the details panel. Deleting offers an undo; archiving leads to the Archives page.
 */
export function useItemActions(selection: Selection, isSearching: boolean, leaveSearch: () => void) {
  const t = useT();
  const router = useRouter();
  const toast = useToast();
  const [menu, setMenu] = useState<{ x: number; y: number } | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [previewing, setPreviewing] = useState<FileResponse | null>(null);
  const [detailsOpen, setDetailsOpen] = useState(false);
  const deleteItems = useDeleteItems();
  const archiveItem = useArchiveItem();
  const restore = useRestoreTrashItems();
  const starred = starredKeys(useQuery(starsQuery()).data);
  const toggleStar = useToggleStar();
  const failed = (e: unknown) => toast({ tone: "error", message: t("files.actionFailed", { reason: describeFileError(e, t) }) });

  function open(item: Item) {
    if (isSearching) leaveSearch();
    if (item.kind === "folder") router.push(`/files/${item.id}`);
    else if (isSearching) router.push(`/files/${item.parent_id}`);
    else if (previewKind(item) !== "none") setPreviewing(item);
    else if (item.can_download) download([item]);
  }

  function remove(list: Item[]) {
    if (list.length === 0 || !list.every((i) => i.can_delete)) return;
    deleteItems.mutate(list, {
      // Only the deleted rows leave the selection: the next row may have been picked while the server answered.
      onSuccess: (trashed) => {
        selection.forget(list);
        toast({
          tone: "info",
          message: list.length === 1 ? t("files.deletedOne", { name: list[0].name }) : t("files.deletedMany", { count: list.length }),
          action: {
            label: t("files.undo"),
            run: () => restore.mutate({ ids: trashed.map((item) => item.id) }, { onSuccess: () => toast({ tone: "info", message: t("files.restored") }), onError: failed }),
          },
        });
      },
      onError: failed,
    });
  }

  /** Archiving is undone from the Archives page, which the notice leads to. */
  function archive(item: Item) {
    archiveItem.mutate(item, {
      onSuccess: () => {
        selection.forget([item]);
        toast({ tone: "info", message: t("archives.archived", { name: item.name }), action: { label: t("archives.open"), run: () => router.push("/archives") } });
      },
      onError: failed,
    });
  }

  function star(item: Item, on: boolean) {
    toggleStar.mutate(
      { target: item, starred: on },
      { onSuccess: () => toast({ tone: "info", message: t(on ? "stars.starred" : "stars.unstarred", { name: item.name }) }), onError: failed },
    );
  }

  function run(action: Action, list = selection.selectedItems) {
    setMenu(null);
    const single = list[0];
    if (!single) return;
    if (action === "open") open(single);
    else if (action === "preview" && single.kind === "file") setPreviewing(single);
    else if (action === "details") setDetailsOpen(true);
    else if (action === "star" || action === "unstar") star(single, action === "star");
    else if (action === "download") download(list);
    else if (action === "rename" || action === "share" || action === "dropLink") setDialog({ type: action, item: single });
    else if (action === "template" && single.kind === "file") setDialog({ type: "template", item: single });
    else if (action === "move" || action === "copy" || action === "tag") setDialog({ type: action, items: list });
    else if (action === "requestSignatures") router.push(`/signatures/new?file=${single.id}`);
    else if (action === "startValidation") setDialog({ type: "startValidation", items: list });
    else if (action === "delete") remove(list);
    else if (action === "archive") archive(single);
  }

  const actions = actionsFor(selection.selectedItems, isSearching, (item) => starred.has(starKey(item)));
  return { actions, menu, setMenu, dialog, setDialog, previewing, setPreviewing, detailsOpen, setDetailsOpen, open, remove, run };
}
