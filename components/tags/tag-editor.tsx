"use client";

import { useQuery } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import { useT } from "@/lib/i18n/provider";
import { elementTagsQuery, tagsQuery, useAttachTag, useCreateTag, useDetachTag, type TagTarget } from "@/lib/queries/tags";
import { describeFileError } from "../file-browser/format";
import { TagChip } from "./tag-chips";
import styles from "./tags.module.css";

/**
 * The tags of one file or folder in the details panel: its chips (each removable), and a field to
 * add one, picked among the tags the caller sees or made on the spot (public, or private: seen by
 * the caller alone). A public tag needs the edit right there; the server says so when it is missing.
 */
export function TagEditor({ target, canEdit }: { target: TagTarget; canEdit: boolean }) {
  const t = useT();
  const toast = useToast();
  const id = useId();
  const current = useQuery(elementTagsQuery(target));
  const all = useQuery(tagsQuery());
  const create = useCreateTag();
  const attach = useAttachTag();
  const detach = useDetachTag();
  const [name, setName] = useState("");
  const [isPrivate, setPrivate] = useState(!canEdit);
  const busy = create.isPending || attach.isPending || detach.isPending;
  const fail = (e: unknown) => toast({ tone: "error", message: t("files.actionFailed", { reason: describeFileError(e, t) }) });

  async function add(event: FormEvent) {
    event.preventDefault();
    const wanted = name.trim();
    if (!wanted) return;
    const key = wanted.normalize("NFC").toLowerCase();
    // An existing tag of that name: the private one of the caller when asked, else the public one.
    const candidates = (all.data ?? []).filter((tag) => tag.key === key);
    const existing = candidates.find((tag) => tag.private === isPrivate) ?? candidates[0];
    try {
      const tag = existing ?? (await create.mutateAsync({ name: wanted, private: isPrivate }));
      await attach.mutateAsync({ tagId: tag.id, target });
      setName("");
      toast({ tone: "info", message: t("tags.added", { name: tag.name }) });
    } catch (error) {
      fail(error);
    }
  }

  const tags = current.data ?? [];
  return (
    <section className={styles.editor} aria-labelledby={`${id}-head`} data-testid="tag-editor">
      <h3 id={`${id}-head`} className={styles.editorHead}>
        {t("tags.title")}
      </h3>
      {current.isError ? (
        <p role="alert" className={styles.none}>
          {t("error.generic")}
        </p>
      ) : tags.length === 0 ? (
        <p className={styles.none}>{current.isPending ? t("common.loading") : t("tags.none")}</p>
      ) : (
        <ul className={styles.chips} aria-label={t("tags.title")} style={{ listStyle: "none", margin: 0, padding: 0 }}>
          {tags.map((tag) => (
            <li key={tag.id}>
              <TagChip tag={tag} disabled={busy} onRemove={tag.private || canEdit ? () => detach.mutate({ tagId: tag.id, target }, { onError: fail }) : undefined} />
            </li>
          ))}
        </ul>
      )}
      <form className={styles.addForm} onSubmit={add}>
        <label className="visually-hidden" htmlFor={`${id}-name`}>
          {t("tags.addLabel")}
        </label>
        <input
          id={`${id}-name`}
          className={styles.addInput}
          list={`${id}-known`}
          value={name}
          maxLength={100}
          placeholder={t("tags.addPlaceholder")}
          onChange={(e) => setName(e.target.value)}
        />
        <datalist id={`${id}-known`}>
          {(all.data ?? [])
            .filter((tag) => !tags.some((on) => on.id === tag.id))
            .map((tag) => (
              <option key={tag.id} value={tag.name} />
            ))}
        </datalist>
        <label className={styles.check}>
          <input type="checkbox" checked={isPrivate} disabled={!canEdit} onChange={(e) => setPrivate(e.target.checked)} />
          {t("tags.privateOption")}
        </label>
        <Button type="submit" size="small" variant="secondary" disabled={busy || !name.trim()}>
          {t("tags.add")}
        </Button>
      </form>
    </section>
  );
}
