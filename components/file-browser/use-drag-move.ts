"use client";

import { useState, type DragEvent } from "react";
import { useToast } from "@/components/ui/toast";
import { useT } from "@/lib/i18n/provider";
import { useMoveItems, type Item } from "@/lib/queries/files";
import { describeFileError, itemKey } from "./format";

/** The drag's own type: files dragged in from the desktop are uploads (use-upload-drop.ts), not moves. */
const TYPE = "application/x-coffre-items";
/** The rows being dragged: one drag at a time in a page, shared by the list and the breadcrumbs. */
let dragging: Item[] = [];

/** Moving an item takes it away, bytes included: the rights of Move to… (item-actions.ts). */
export const canTakeOut = (item: Item) => item.can_delete && item.can_download && item.can_edit;

/** Starts dragging `items` (the selection, or the one row picked up). */
export function startDrag(event: DragEvent, items: Item[]) {
  dragging = items;
  event.dataTransfer.effectAllowed = "move";
  event.dataTransfer.setData(TYPE, items.map(itemKey).join(" "));
  event.dataTransfer.setData("text/plain", items.map((i) => i.name).join("\n"));
}

/**
 * Where dragged rows may be dropped (folder rows, breadcrumbs): the move, with the same rules as
 * Move to… (the server refuses what they refuse), then a notice whose Undo moves them back.
 * The keyboard's way to the same is Move to… in the menu.
 */
export function useDropMove() {
  const t = useT();
  const toast = useToast();
  const move = useMoveItems();
  const [over, setOver] = useState<number | null>(null);
  const failed = (e: unknown) => toast({ tone: "error", message: t("files.actionFailed", { reason: describeFileError(e, t) }) });
  const accepts = (event: DragEvent, folderId: number) =>
    event.dataTransfer.types.includes(TYPE) && dragging.length > 0 && !dragging.some((i) => (i.kind === "folder" && i.id === folderId) || i.parent_id === folderId);

  function dropProps(target: { id: number; name: string }) {
    return {
      "data-drop-over": over === target.id || undefined,
      onDragOver(event: DragEvent) {
        if (!accepts(event, target.id)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = "move";
        setOver(target.id);
      },
      onDragLeave() {
        setOver((current) => (current === target.id ? null : current));
      },
      onDrop(event: DragEvent) {
        setOver(null);
        if (!accepts(event, target.id)) return;
        event.preventDefault();
        event.stopPropagation();
        const items = dragging;
        dragging = [];
        move.mutate(
          { items, parentId: target.id },
          {
            onSuccess: () =>
              toast({
                tone: "info",
                message: items.length === 1 ? t("files.movedOneTo", { name: items[0].name, target: target.name }) : t("files.movedTo", { count: items.length, name: target.name }),
                action: { label: t("files.undo"), run: () => undo(items) },
              }),
            onError: failed,
          },
        );
      },
    };
  }

  /** Each item back in the folder it came from. */
  async function undo(items: Item[]) {
    try {
      for (const parentId of new Set(items.map((i) => i.parent_id))) await move.mutateAsync({ items: items.filter((i) => i.parent_id === parentId), parentId });
      toast({ tone: "info", message: t("files.movedBack") });
    } catch (error) {
      failed(error);
    }
  }

  return dropProps;
}
