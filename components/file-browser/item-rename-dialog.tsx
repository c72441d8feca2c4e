"use client";

import { useT } from "@/lib/i18n/provider";
import { useRenameItem, type Item } from "@/lib/queries/files";
import { describeFileError } from "./format";
import { NameDialog } from "./name-dialog";

export function ItemRenameDialog({ item, onDone, onClose }: { item: Item; onDone: () => void; onClose: () => void }) {
  const t = useT();
  const rename = useRenameItem();
  return (
    <NameDialog
      title={t("files.renameTitle", { name: item.name })}
      submitLabel={t("files.rename")}
      initialName={item.name}
      pending={rename.isPending}
      onClose={onClose}
      onSubmit={(name, fail) => {
        if (name === item.name) return onClose();
        rename.mutate({ item, name }, { onSuccess: onDone, onError: (e) => fail(describeFileError(e, t)) });
      }}
      // The name without its extension is selected, as file managers do.
      onFocus={(e) => {
        const dot = item.kind === "file" ? item.name.lastIndexOf(".") : -1;
        e.currentTarget.setSelectionRange(0, dot > 0 ? dot : item.name.length);
      }}
    />
  );
}
