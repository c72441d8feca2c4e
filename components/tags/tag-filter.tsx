"use client";

import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { useT } from "@/lib/i18n/provider";
import { tagsQuery } from "@/lib/queries/tags";
import { TagChip } from "./tag-chips";
import styles from "./tags.module.css";

/** The search filter on tags: each tag picked must be on a match (folder search's `tags`). */
export function TagFilter({ value, onChange }: { value: number[]; onChange: (ids: number[] | undefined) => void }) {
  const t = useT();
  const id = useId();
  const all = useQuery(tagsQuery());
  const tags = all.data ?? [];
  const chosen = value.map((tagId) => tags.find((tag) => tag.id === tagId)).filter((tag) => tag !== undefined);
  const set = (ids: number[]) => onChange(ids.length ? ids : undefined);
  if (tags.length === 0) return null;
  return (
    <span className={styles.filter} role="group" aria-labelledby={`${id}-label`}>
      <label id={`${id}-label`} htmlFor={`${id}-pick`}>
        {t("tags.filter")}
      </label>
      <select
        id={`${id}-pick`}
        className={styles.filterSelect}
        value=""
        onChange={(e) => {
          const picked = Number(e.target.value);
          if (picked && !value.includes(picked)) set([...value, picked]);
        }}
      >
        <option value="">{t("tags.filterPick")}</option>
        {tags
          .filter((tag) => !value.includes(tag.id))
          .map((tag) => (
            <option key={tag.id} value={tag.id}>
              {tag.private ? t("tags.privateChip", { name: tag.name }) : tag.name}
            </option>
          ))}
      </select>
      {chosen.map((tag) => (
        <TagChip key={tag.id} tag={tag} onRemove={() => set(value.filter((v) => v !== tag.id))} />
      ))}
    </span>
  );
}
