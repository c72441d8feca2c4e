"use client";

import { useQuery } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { FormStatus } from "@/components/ui/form-status";
import { useT } from "@/lib/i18n/provider";
import type { Item } from "@/lib/queries/files";
import { linkState, sharesQuery, useCreateShare } from "@/lib/queries/sharing";
import { describeFileError } from "../file-browser/format";
import { changesOfDraft, EMPTY_LINK_DRAFT, LinkOptionsFields } from "./link-options";
import { AddPeople } from "./share-people";
import { ShareRow } from "./share-row";
import styles from "./sharing.module.css";

/**
 * Sharing one file or folder in one place (issue 29): people (users, groups, outside addresses),
 * its links with every option editable, and a new link.
 */
export function ShareDialog({ item, onClose }: { item: Item; onClose: () => void }) {
  const t = useT();
  const shares = useQuery(sharesQuery());
  const create = useCreateShare();
  const [draft, setDraft] = useState(EMPTY_LINK_DRAFT);
  const [error, setError] = useState<string | null>(null);
  const [fresh, setFresh] = useState<number | null>(null);
  // One link's options at a time are edited; meanwhile the footer saves them and the new link's form steps aside.
  const [editing, setEditing] = useState<number | null>(null);
  const saveEdited = useRef<(() => void) | null>(null);

  const mine = (shares.data ?? []).filter((share) =>
    share.roots.some((root) => (item.kind === "file" ? root.is_file && root.guid === item.guid : !root.is_file && root.id === item.id)),
  );
  // An outside address on a file gets a link by mail: the newest open one without a password, else a new one.
  const mailable = mine.find((share) => linkState(share) === "active" && !share.password_protected && !share.gate.ask_email);

  function submit() {
    const parsed = changesOfDraft(draft);
    if ("problem" in parsed) return setError(t(parsed.problem.key, parsed.problem));
    const { name, expiration_date, password, flags = 0, ...gate } = parsed.changes;
    create.mutate(
      { roots: [{ id: item.id, entity_type: item.kind === "file" ? 1 : 0 }], flags, ...gate, ...(password ? { password } : {}), ...(name ? { name } : {}), ...(expiration_date ? { expiration_date } : {}) },
      {
        onSuccess: (share) => {
          setError(null);
          setDraft(EMPTY_LINK_DRAFT);
          setFresh(share.id);
        },
        onError: (e) => setError(describeFileError(e, t)),
      },
    );
  }

  return (
    <Dialog
      title={t("sharing.title", { name: item.name })}
      closeLabel={t("common.close")}
      onClose={onClose}
      onSubmit={() => (editing === null ? submit() : saveEdited.current?.())}
      footer={
        editing === null ? (
          <DialogActions cancelLabel={t("common.close")} onCancel={onClose} submitLabel={t("sharing.create")} disabled={create.isPending} />
        ) : (
          <DialogActions cancelLabel={t("common.cancel")} onCancel={() => setEditing(null)} submitLabel={t("sharing.save")} />
        )
      }
    >
      <div className={styles.stack}>
        <section aria-label={t("sharing.people.title")} className={styles.section}>
          <h3 className={styles.heading}>{t("sharing.people.title")}</h3>
          <AddPeople item={item} linkId={mailable?.id ?? null} />
        </section>
        {mine.length > 0 && (
          <section aria-label={t("sharing.existing")} className={styles.section}>
            <h3 className={styles.heading}>{t("sharing.existing")}</h3>
            <ul className={styles.links}>
              {mine.map((share) => (
                <ShareRow
                  key={share.id}
                  share={share}
                  open={share.id === fresh}
                  edit={{ editing: editing === share.id, onEditing: (on) => setEditing(on ? share.id : null), saveRef: saveEdited }}
                />
              ))}
            </ul>
          </section>
        )}
        {editing === null && (
          <LinkOptionsFields
            title={t("sharing.newLink")}
            value={draft}
            onChange={(next) => {
              setDraft(next);
              setError(null);
            }}
          />
        )}
        <FormStatus status={error ? { tone: "error", message: error } : null} />
      </div>
    </Dialog>
  );
}
