"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { useT } from "@/lib/i18n/provider";
import { folderTreeQuery } from "@/lib/queries/files";
import { describeFileError } from "./format";
import { TreePicker, usePickerTrail, type Level } from "./tree-picker";

type Props = {
  title: string;
  submitLabel: string;
  /** Folders that cannot be chosen nor entered (a folder being moved). */
  excluded?: ReadonlySet<number>;
  /** Does the work in the chosen folder; a rejection is shown in the dialog. */
  onPick: (folderId: number) => Promise<unknown>;
  pending: boolean;
  onDone: () => void;
  onClose: () => void;
};

/** A folder chosen by walking down the tree, one level at a time: for moves, copies and restores. */
export function FolderPickerDialog({ title, submitLabel, excluded, onPick, pending, onDone, onClose }: Props) {
  const t = useT();
  const trail = usePickerTrail();
  const [error, setError] = useState<string | null>(null);
  const children = useQuery({ ...folderTreeQuery(trail.folderId), enabled: trail.hasFolder });
  const here = trail.here;
  const canDrop = typeof here?.id === "number" && here.id > 0;
  const list: Level[] = trail.atSpaces ? trail.spaces : (children.data ?? []).filter((f) => !excluded?.has(f.id)).map((f) => ({ id: f.id, name: f.name }));

  function submit() {
    if (!canDrop) return;
    onPick(here!.id as number).then(onDone, (e) => setError(describeFileError(e, t)));
  }

  return (
    <Dialog
      title={title}
      closeLabel={t("common.close")}
      onClose={onClose}
      onSubmit={submit}
      footer={
        <DialogActions
          cancelLabel={t("common.cancel")}
          onCancel={onClose}
          submitLabel={submitLabel}
          disabled={!canDrop || pending}
        />
      }
    >
      <TreePicker trail={trail} folders={list} label={t("files.pickerLabel")} empty={list.length === 0 && !children.isLoading ? t("files.pickerEmpty") : null} error={error} />
    </Dialog>
  );
}
