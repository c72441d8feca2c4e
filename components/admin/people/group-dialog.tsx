"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { FormStatus } from "@/components/ui/form-status";
import { TextField } from "@/components/ui/text-field";
import { useT } from "@/lib/i18n/provider";
import { displayName } from "@/lib/queries/account";
import { groupQuery, useCreateGroup, useUpdateGroup, type AdminGroup } from "@/lib/queries/admin-people";
import styles from "./people.module.css";
import { describePeopleError } from "./shared";
import { UserPicker, type Picked } from "./user-picker";

type Props = { group?: AdminGroup; isManager: boolean; onClose: () => void; onDone: (group: AdminGroup) => void };

/** Create or edit a group: its name, members and managers (managers of the group change its members only). */
export function GroupDialog(props: Props) {
  const t = useT();
  const full = useQuery({ ...groupQuery(props.group?.id ?? ""), enabled: Boolean(props.group) });
  if (!props.group) return <GroupForm {...props} members={[]} managers={[]} />;
  if (full.data) {
    const toPicked = (list: AdminGroup["members"]) => (list ?? []).map((u) => ({ id: u.id, name: displayName(u) }));
    return <GroupForm {...props} members={toPicked(full.data.members)} managers={toPicked(full.data.managers)} />;
  }
  return (
    <Dialog title={t("adminPeople.groups.editTitle", { name: props.group.login })} closeLabel={t("common.close")} onClose={props.onClose} footer={null}>
      {full.isError ? <p role="alert">{describePeopleError(full.error, t)}</p> : <p>{t("common.loading")}</p>}
    </Dialog>
  );
}

function GroupForm({ group, isManager, onClose, onDone, ...initial }: Props & { members: Picked[]; managers: Picked[] }) {
  const t = useT();
  const create = useCreateGroup();
  const update = useUpdateGroup();
  const [name, setName] = useState(group?.login ?? "");
  const [members, setMembers] = useState<Picked[]>(initial.members);
  const [managers, setManagers] = useState<Picked[]>(initial.managers);
  const [error, setError] = useState<string | null>(null);
  const busy = create.isPending || update.isPending;
  const readOnly = group?.ldap ?? false;

  async function submit() {
    setError(null);
    if (!name.trim()) {
      setError(t("common.required"));
      return;
    }
    const input = isManager
      ? { members: members.map((m) => m.id) }
      : { login: name.trim(), members: members.map((m) => m.id), managers: managers.map((m) => m.id) };
    try {
      onDone(group ? await update.mutateAsync({ id: group.id, input }) : await create.mutateAsync(input));
    } catch (e) {
      setError(describePeopleError(e, t));
    }
  }

  return (
    <Dialog
      title={group ? t("adminPeople.groups.editTitle", { name: group.login }) : t("adminPeople.groups.createTitle")}
      closeLabel={t("common.close")}
      onClose={onClose}
      onSubmit={submit}
      footer={<DialogActions cancelLabel={t("common.cancel")} onCancel={onClose} submitLabel={busy ? t("common.saving") : group ? t("common.save") : t("adminPeople.groups.create")} disabled={busy || readOnly} />}
    >
      {readOnly && <p>{t("adminPeople.groups.directory")}</p>}
      <TextField label={t("adminPeople.groups.name")} value={name} onChange={(e) => setName(e.target.value)} disabled={isManager || readOnly} required />
      <UserPicker legend={t("adminPeople.groups.members")} picked={members} onChange={setMembers} disabled={readOnly} />
      {!isManager && <UserPicker legend={t("adminPeople.groups.managers")} picked={managers} onChange={setManagers} role={4} disabled={readOnly} />}
      {!isManager && <p className={styles.hint}>{t("adminPeople.groups.managersHint")}</p>}
      <FormStatus status={error ? { tone: "error", message: error } : null} />
    </Dialog>
  );
}
