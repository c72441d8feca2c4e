"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { useToast } from "@/components/ui/toast";
import { useT } from "@/lib/i18n/provider";
import { folderInvitationsQuery, invitableQuery, useGrantRight, useInviteToFolder, type RightFlags } from "@/lib/queries/details";
import type { Item } from "@/lib/queries/files";
import { isEmailAddress, useShareByEmail } from "@/lib/queries/sharing";
import styles from "@/components/file-details/details.module.css";
import { describeFileError } from "../file-browser/format";

/** What a newly added person gets until changed: see, read and download. */
const READER: RightFlags = { browse: true, read: true, download: true, write: false, edit: false, delete: false, share: false };

/**
 * People to share with, in one field (issue 29). A folder: users and groups found get read access,
 * an outside address an invitation (POST /invite, read and download). A file (rights live on
 * folders): an address gets the link by mail as an email share, on `linkId` or on a new link.
 */
export function AddPeople({ item, recursive = true, linkId = null }: { item: Item; recursive?: boolean; linkId?: number | null }) {
  const t = useT();
  const toast = useToast();
  const [text, setText] = useState("");
  const [search, setSearch] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), 250);
    return () => clearTimeout(timer);
  }, [text]);
  const isFolder = item.kind === "folder";
  const found = useQuery({ ...invitableQuery(item.id, search), enabled: isFolder && search.length >= 3 });
  const invited = useQuery({ ...folderInvitationsQuery(item.id), enabled: isFolder });
  const pending = (invited.data ?? []).filter((invitation) => !invitation.used_at && !(invitation.expiration && new Date(invitation.expiration) <= new Date()));
  const grant = useGrantRight(item.id);
  const invite = useInviteToFolder(item.id);
  const mail = useShareByEmail();
  const listId = useId();
  const email = isEmailAddress(search) ? search.toLowerCase() : null;
  const people = isFolder ? (found.data ?? []) : [];
  const known = email !== null && people.some((person) => person.emails.some((address) => address.toLowerCase() === email));
  const failed = (e: unknown) => toast({ tone: "error", message: t("files.actionFailed", { reason: describeFileError(e, t) }) });
  const done = (message: string) => {
    setText("");
    setSearch("");
    toast({ tone: "info", message });
  };

  function shareWithOutside(address: string) {
    if (isFolder) return invite.mutate(address, { onSuccess: () => done(t("sharing.people.invited", { email: address })), onError: failed });
    mail.mutate(
      { root: { id: item.id, entity_type: 1 }, shareId: linkId, recipients: [address], object: "", content: "" },
      { onSuccess: () => done(t("sharing.people.mailed", { email: address })), onError: failed },
    );
  }

  const label = isFolder ? t("sharing.people.add") : t("sharing.people.addEmail");
  const waiting = isFolder && found.isFetching && !found.data;
  const listed = search.length >= 3 && !waiting;
  return (
    <div className={styles.addPerson}>
      {/* aria-controls names the list only while it exists (axe: a reference to no element is invalid). */}
      <input type="search" className={styles.input} aria-label={label} placeholder={isFolder ? t("sharing.people.placeholder") : label} aria-controls={listed ? listId : undefined} value={text} onChange={(e) => setText(e.target.value)} />
      {listed && (
        <ul id={listId} className={styles.suggestions} aria-label={t("details.suggestions")}>
          {people.map((person) => (
            <li key={person.id}>
              <button
                type="button"
                className={styles.suggestion}
                onClick={() => grant.mutate({ targetId: person.id, flags: READER, recursive }, { onSuccess: () => done(t("details.rightGranted", { name: person.name })), onError: failed })}
              >
                {person.name}
                {person.emails.length > 0 ? <span className={styles.muted}> · {person.emails.join(", ")}</span> : null}
              </button>
            </li>
          ))}
          {email && !known && (
            <li>
              <button type="button" className={styles.suggestion} disabled={invite.isPending || mail.isPending} onClick={() => shareWithOutside(email)}>
                {isFolder ? t("sharing.people.invite", { email }) : t("sharing.people.sendLink", { email })}
              </button>
            </li>
          )}
          {people.length === 0 && !email && <li className={styles.muted}>{isFolder ? t("sharing.people.nobodyHint") : t("sharing.people.typeEmail")}</li>}
        </ul>
      )}
      {pending.length > 0 && (
        <p className={styles.muted} data-testid="pending-invitations">
          {t("sharing.people.pending")}: {pending.map((invitation) => invitation.email).join(", ")}
        </p>
      )}
    </div>
  );
}
