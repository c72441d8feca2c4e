"use client";

import { useQuery } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { useDialogAction } from "@/components/use-dialog-action";
import { useT } from "@/lib/i18n/provider";
import { PickerFile, TreePicker, usePickerTrail, type Level } from "@/components/file-browser/tree-picker";
import { pdfPickerQuery } from "@/lib/queries/signatures";
import { describeSignatureError } from "./describe-error";

/**
 * A PDF chosen from the file browser's spaces, walking down one folder at a time (like the
 * folder picker of moves and copies), showing only folders and PDFs.
 */
export function DocumentPickerDialog({ onPick, onClose }: { onPick: (fileId: number) => Promise<unknown>; onClose: () => void }) {
  const t = useT();
  const trail = usePickerTrail();
  const { busy: pending, error, run } = useDialogAction((e) => describeSignatureError(e, t));
  const level = useQuery({ ...pdfPickerQuery(trail.folderId), enabled: trail.hasFolder });
  const folders: Level[] = trail.atSpaces ? trail.spaces : (level.data?.folders ?? []).map((f) => ({ id: f.id, name: f.name }));
  const files = trail.atSpaces ? [] : (level.data?.files ?? []);

  const pick = (fileId: number) => run(() => onPick(fileId), onClose);

  return (
    <Dialog
      title={t("signatures.picker.title")}
      closeLabel={t("common.close")}
      onClose={onClose}
      footer={
        <Button variant="secondary" onClick={onClose}>
          {t("common.cancel")}
        </Button>
      }
    >
      <TreePicker
        trail={trail}
        folders={folders}
        label={t("signatures.picker.label")}
        empty={folders.length === 0 && files.length === 0 && !level.isLoading ? t("signatures.picker.empty") : null}
        busy={level.isFetching || pending}
        error={error}
      >
        {files.map((file) => (
          <PickerFile key={`file:${file.id}`} name={file.name} label={t("signatures.picker.add", { name: file.name })} disabled={pending} onPick={() => pick(file.id)} />
        ))}
      </TreePicker>
    </Dialog>
  );
}
