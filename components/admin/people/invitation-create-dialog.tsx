"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { TreePicker, usePickerTrail, type Level } from "@/components/file-browser/tree-picker";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { FormStatus } from "@/components/ui/form-status";
import { TextField } from "@/components/ui/text-field";
import { useT } from "@/lib/i18n/provider";
import { type AdminInvitation, useCreateInvitation } from "@/lib/queries/admin-people";
import { folderTreeQuery } from "@/lib/queries/files";
import { RightsFieldset } from "./invitation-rights";
import styles from "./people.module.css";
import { describePeopleError } from "./shared";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Read and download: what an invitation to look at documents usually grants. */
const DEFAULT_RIGHTS = 1 | 2;

/**
 * Invites an email address to a folder (POST /invite): the folder is the one the picker stands
 * in, walked from one's own space; the server keeps the rights within the inviter's own and mails
 * the invited address its link.
 */
export function InvitationCreateDialog({ onClose, onDone }: { onClose: () => void; onDone: (invitation: AdminInvitation) => void }) {
  const t = useT();
  const create = useCreateInvitation();
  const trail = usePickerTrail();
  const children = useQuery({ ...folderTreeQuery(trail.folderId), enabled: trail.hasFolder });
  const [email, setEmail] = useState("");
  const [rights, setRights] = useState(DEFAULT_RIGHTS);
  const [expiration, setExpiration] = useState("");
  const [invalid, setInvalid] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const here = trail.here;
  const folderId = typeof here?.id === "number" && here.id > 0 ? here.id : null;
  const list: Level[] = trail.atSpaces ? trail.spaces : (children.data ?? []).map((f) => ({ id: f.id, name: f.name }));

  async function submit() {
    setError(null);
    const bad = new Set<string>();
    if (!EMAIL.test(email.trim())) bad.add("email");
    if (expiration && new Date(`${expiration}T23:59:59`).getTime() <= Date.now()) bad.add("expiration");
    setInvalid(bad);
    if (bad.size) return;
    if (rights === 0) return setError(t("adminPeople.invitations.noRight"));
    if (folderId === null) return setError(t("adminPeople.invitations.pickFolder"));
    try {
      const invitation = await create.mutateAsync({ target: email.trim(), folder: folderId, rights, expiration: expiration ? new Date(`${expiration}T23:59:59`).toISOString() : null });
      onDone(invitation);
    } catch (e) {
      setError(describePeopleError(e, t));
    }
  }

  return (
    <Dialog
      title={t("adminPeople.invitations.newTitle")}
      closeLabel={t("common.close")}
      onClose={onClose}
      onSubmit={() => void submit()}
      footer={<DialogActions cancelLabel={t("common.cancel")} onCancel={onClose} submitLabel={create.isPending ? t("common.saving") : t("adminPeople.invitations.send")} disabled={create.isPending} />}
    >
      <TextField
        label={t("adminPeople.invitations.email")}
        type="email"
        autoComplete="off"
        value={email}
        onChange={(e) => {
          setEmail(e.target.value);
          setInvalid((bad) => withoutField(bad, "email"));
        }}
        error={invalid.has("email") ? t("adminPeople.invitations.emailInvalid") : null}
        required
      />
      <div className={styles.dialogFolder} role="group" aria-label={t("adminPeople.invitations.folderLabel")}>
        <span className={styles.legend}>{t("adminPeople.invitations.folderLabel")}</span>
        <span className={styles.hint}>{t("adminPeople.invitations.folderHint")}</span>
        <TreePicker trail={trail} folders={list} label={t("files.pickerLabel")} empty={list.length === 0 && !children.isLoading ? t("files.pickerEmpty") : null} error={null} />
      </div>
      <RightsFieldset rights={rights} onChange={setRights} />
      <TextField
        label={t("adminPeople.invitations.expiration")}
        hint={t("adminPeople.invitations.expirationHint")}
        type="date"
        value={expiration}
        onChange={(e) => {
          setExpiration(e.target.value);
          setInvalid((bad) => withoutField(bad, "expiration"));
        }}
        error={invalid.has("expiration") ? t("adminPeople.invitations.expirationPast") : null}
      />
      <FormStatus status={error ? { tone: "error", message: error } : null} />
    </Dialog>
  );
}

/** A field's error is dropped as soon as it is edited; the next submit judges it again. */
function withoutField(bad: Set<string>, field: string): Set<string> {
  if (!bad.has(field)) return bad;
  const next = new Set(bad);
  next.delete(field);
  return next;
}
