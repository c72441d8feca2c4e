"use client";

import { useT } from "@/lib/i18n/provider";
import { useCreateFolder } from "@/lib/queries/files";
import { describeFileError } from "./format";
import { NameDialog } from "./name-dialog";

export function FolderCreateDialog({ parentId, onDone, onClose }: { parentId: number; onDone: () => void; onClose: () => void }) {
  const t = useT();
  const create = useCreateFolder();
  return (
    <NameDialog
      title={t("files.newFolderTitle")}
      submitLabel={t("files.create")}
      pending={create.isPending}
      onClose={onClose}
      onSubmit={(name, fail) => create.mutate({ name, parentId }, { onSuccess: onDone, onError: (e) => fail(describeFileError(e, t)) })}
    />
  );
}
