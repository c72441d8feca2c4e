"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useT } from "@/lib/i18n/provider";
import type { Item } from "@/lib/queries/files";
import { tagsQuery, useAttachTag, useCreateTag } from "@/lib/queries/tags";
import { describeFileError } from "./format";
import { NameDialog } from "./name-dialog";

/**
 * One tag on every selected item: an existing tag of that name (the caller's private one first),
 * else a new one, public when the caller may edit every item, private otherwise (as the details
 * panel's editor decides). Stops at the first refusal, which it says.
 */
export function ItemsTagDialog({ items, onDone, onClose }: { items: Item[]; onDone: (name: string) => void; onClose: () => void }) {
  const t = useT();
  const all = useQuery(tagsQuery());
  const create = useCreateTag();
  const attach = useAttachTag();
  const [pending, setPending] = useState(false);
  const isPrivate = !items.every((i) => i.can_edit);
  return (
    <NameDialog
      title={t("files.tagTitle", { count: items.length })}
      submitLabel={t("files.tagSubmit")}
      label={t("tags.addLabel")}
      pending={pending}
      onClose={onClose}
      onSubmit={async (name, fail) => {
        const key = name.normalize("NFC").toLowerCase();
        const candidates = (all.data ?? []).filter((tag) => tag.key === key);
        setPending(true);
        try {
          const tag = candidates.find((c) => c.private) ?? candidates[0] ?? (await create.mutateAsync({ name, private: isPrivate }));
          for (const item of items) await attach.mutateAsync({ tagId: tag.id, target: { type: item.kind, id: item.id } });
          onDone(tag.name);
        } catch (error) {
          fail(describeFileError(error, t));
        } finally {
          setPending(false);
        }
      }}
    />
  );
}
