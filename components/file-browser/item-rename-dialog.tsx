"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { TextField } from "@/components/ui/text-field";
import { useT } from "@/lib/i18n/provider";
import { useRenameItem, type Item } from "@/lib/queries/files";
import { describeFileError } from "./format";

export function ItemRenameDialog({ item, onDone, onClose }: { item: Item; onDone: () => void; onClose: () => void }) {
  const t = useT();
  const [name, setName] = useState(item.name);
  const [error, setError] = useState<string | null>(null);
  const rename = useRenameItem();

  function submit() {
    const trimmed = name.trim();
    if (!trimmed) return setError(t("common.required"));
    if (trimmed === item.name) return onClose();
    rename.mutate({ item, name: trimmed }, { onSuccess: onDone, onError: (e) => setError(describeFileError(e, t)) });
  }

  return (
    <Dialog
      title={t("files.renameTitle", { name: item.name })}
      closeLabel={t("common.close")}
      onClose={onClose}
      onSubmit={submit}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" disabled={rename.isPending}>
            {t("files.rename")}
          </Button>
        </>
      }
    >
      <TextField
        label={t("files.nameLabel")}
        value={name}
        onChange={(e) => setName(e.target.value)}
        // The name without its extension is selected, as file managers do.
        onFocus={(e) => {
          const dot = item.kind === "file" ? item.name.lastIndexOf(".") : -1;
          e.currentTarget.setSelectionRange(0, dot > 0 ? dot : item.name.length);
        }}
        error={error}
        autoComplete="off"
      />
    </Dialog>
  );
}
