"use client";

import { useT } from "@/lib/i18n/provider";
import { useCopyItems, useMoveItems, type Item } from "@/lib/queries/files";
import { FolderPickerDialog } from "./folder-picker-dialog";

/** Moves or copies items into a folder picked in the tree. */
export function ItemsMoveDialog({ items, mode, onDone, onClose }: { items: Item[]; mode: "move" | "copy"; onDone: () => void; onClose: () => void }) {
  const t = useT();
  const move = useMoveItems();
  const copy = useCopyItems();
  const mutation = mode === "move" ? move : copy;
  return (
    <FolderPickerDialog
      title={t(mode === "move" ? "files.moveTitle" : "files.copyTitle", { count: items.length })}
      submitLabel={t(mode === "move" ? "files.moveHere" : "files.copyHere")}
      excluded={new Set(items.filter((i) => i.kind === "folder").map((i) => i.id))}
      onPick={(parentId) => mutation.mutateAsync({ items, parentId })}
      pending={mutation.isPending}
      onDone={onDone}
      onClose={onClose}
    />
  );
}
