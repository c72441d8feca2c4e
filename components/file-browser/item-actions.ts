import { previewKind } from "@/components/file-preview/preview-kind";
import type { Item } from "@/lib/queries/files";
import type { Action } from "./item-menu";

/**
 * What may be done with these items, in the order the menu shows it (the rights come with each
 * item). `isStarred` tells whether one item is among the caller's stars (issue 29).
 */
export function actionsFor(list: Item[], isSearching: boolean, isStarred: (item: Item) => boolean = () => false): Action[] {
  if (list.length === 0) return [];
  const single = list.length === 1 ? list[0] : null;
  const actions: Action[] = [];
  if (single && (single.kind === "folder" || isSearching)) actions.push("open");
  if (single?.kind === "file" && previewKind(single) !== "none") actions.push("preview");
  if (single) actions.push("details");
  if (single) actions.push(isStarred(single) ? "unstar" : "star");
  if (single?.can_share) actions.push("share");
  if (single?.kind === "folder" && single.can_share) actions.push("dropLink");
  // Several items or a folder: one zip, where files without the download right are listed, not carried.
  if (single?.kind === "file" ? single.can_download : list.some((i) => i.can_download)) actions.push("download");
  // Signature requests take PDFs the caller may download (api.md, "add a document").
  if (single?.kind === "file" && single.can_download && previewKind(single) === "pdf") actions.push("requestSignatures");
  // Workflows: one file is a flux 1 validation, several files one flux 4 validation (api.md).
  if (list.length <= 50 && list.every((i) => i.kind === "file" && i.can_download)) actions.push("startValidation");
  if (single?.kind === "file" && single.can_download) actions.push("template");
  if (single && (single.can_write || single.can_edit)) actions.push("rename");
  const canDelete = list.every((i) => i.can_delete);
  // Moving and archiving take an item away, bytes included: the rights of a move, not delete alone (issue 25).
  const canTakeOut = list.every((i) => i.can_delete && i.can_download && i.can_edit);
  if (canTakeOut) actions.push("move");
  actions.push("copy");
  actions.push("tag");
  if (canDelete) actions.push("delete");
  if (single && canTakeOut && !(single.kind === "folder" && single.parent_id === 0)) actions.push("archive");
  return actions;
}
