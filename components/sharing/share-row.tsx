"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState, type RefObject } from "react";
import { LocalTime } from "@/components/local-time";
import { Button } from "@/components/ui/button";
import buttons from "@/components/ui/button.module.css";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { eventEnv } from "@/lib/event-env";
import { useT } from "@/lib/i18n/provider";
import type { MessageKey } from "@/lib/i18n/translate";
import { linkState, SHARE_FLAGS, shareActivityQuery, useDeleteShare, useSendShare, useUpdateShare, type ShareResponse } from "@/lib/queries/sharing";
import { describeFileError } from "../file-browser/format";
import { CopyField } from "./copy-field";
import { changesOfDraft, draftOfShare, LinkOptionsFields } from "./link-options";
import { SendByMail } from "./send-by-mail";
import styles from "./sharing.module.css";

export const STATE_LABELS: Record<ReturnType<typeof linkState>, MessageKey> = {
  active: "sharing.state.active",
  expired: "sharing.state.expired",
  used: "sharing.state.used",
  invalid: "sharing.state.invalid",
};

type T = ReturnType<typeof useT>;

/** What the dialog hands a row whose options are being edited: its footer then saves this editor. */
export type LinkEditing = { editing: boolean; onEditing: (editing: boolean) => void; saveRef: RefObject<(() => void) | null> };

/**
 * One link: its state, address to copy, and what its owner does with it (mail, edit, activity,
 * analytics, delete). In the share dialog (`edit` given) the dialog's footer saves or cancels the
 * editor; elsewhere the editor has its own buttons.
 */
export function ShareRow({ share, open = false, edit: inDialog }: { share: ShareResponse; open?: boolean; edit?: LinkEditing }) {
  const t = useT();
  const [shown, setShown] = useState<"mail" | "activity" | null>(open ? "mail" : null);
  const [editingHere, setEditingHere] = useState(false);
  const edit = inDialog ?? { editing: editingHere, onEditing: setEditingHere, saveRef: null };
  const expanded = edit.editing ? "edit" : shown;
  const remove = useDeleteShare();
  const send = useSendShare();
  const state = linkState(share);
  const toggle = (what: "mail" | "activity" | "edit") => {
    edit.onEditing(what === "edit" && expanded !== "edit");
    setShown(what !== "edit" && expanded !== what ? what : null);
  };
  return (
    <li className={styles.link} data-testid="share-row">
      <div className={styles.linkHead}>
        <span className={`${styles.state} ${styles[state]}`}>{t(STATE_LABELS[state])}</span>
        {share.name && <strong className={styles.linkName}>{share.name}</strong>}
        <span className={styles.muted}>{describeShare(share, t)}</span>
      </div>
      <CopyField label={t("sharing.address")} value={share.url} />
      <div className={styles.linkActions}>
        <Button size="small" variant="ghost" aria-expanded={expanded === "edit"} onClick={() => toggle("edit")}>
          {t("sharing.edit")}
        </Button>
        <Button size="small" variant="ghost" aria-expanded={expanded === "mail"} onClick={() => toggle("mail")}>
          {t("sharing.sendByMail")}
        </Button>
        <Button size="small" variant="ghost" aria-expanded={expanded === "activity"} onClick={() => toggle("activity")}>
          {t("sharing.activity")}
        </Button>
        <Link href={`/links/${share.id}/analytics`} className={`${buttons.button} ${buttons.ghost} ${buttons.small}`}>
          {t("engagement.analytics")}
        </Link>
        <Button size="small" variant="ghost" onClick={() => remove.mutate(share.id)} aria-label={t("sharing.deleteLink")}>
          {t("sharing.delete")}
        </Button>
      </div>
      {expanded === "edit" && <LinkEditor share={share} onDone={() => edit.onEditing(false)} saveRef={edit.saveRef} />}
      {expanded === "mail" && <SendByMail pending={send.isPending} send={(input) => send.mutateAsync({ shareId: share.id, ...input })} />}
      {expanded === "activity" && <ShareActivityList shareId={share.id} />}
    </li>
  );
}

/** Every option of an existing link, saved at once with PUT /share/(id): by its own button, or by the dialog's (`saveRef`). */
function LinkEditor({ share, onDone, saveRef }: { share: ShareResponse; onDone: () => void; saveRef: LinkEditing["saveRef"] | null }) {
  const t = useT();
  const [draft, setDraft] = useState(() => draftOfShare(share));
  const [status, setStatus] = useState<Status>(null);
  const update = useUpdateShare();

  function save() {
    const parsed = changesOfDraft(draft, share);
    if ("problem" in parsed) return setStatus({ tone: "error", message: t(parsed.problem.key, parsed.problem) });
    update.mutate(
      { shareId: share.id, changes: parsed.changes },
      {
        onSuccess: () => {
          setStatus(null);
          onDone();
        },
        onError: (e) => setStatus({ tone: "error", message: describeFileError(e, t) }),
      },
    );
  }
  // The dialog's footer calls the latest save, with the draft of the last render.
  useEffect(() => {
    if (saveRef) saveRef.current = save;
  });

  return (
    <div className={styles.stack} role="group" aria-label={t("sharing.editTitle")} data-testid="link-editor">
      <LinkOptionsFields
        value={draft}
        onChange={(next) => {
          setDraft(next);
          setStatus(null);
        }}
        protectedNow={share.password_protected}
      />
      <FormStatus status={status} />
      {!saveRef && (
        <div className={styles.linkActions}>
          <Button size="small" onClick={save} disabled={update.isPending}>
            {t("sharing.save")}
          </Button>
          <Button size="small" variant="ghost" onClick={onDone}>
            {t("common.cancel")}
          </Button>
        </div>
      )}
    </div>
  );
}

function describeShare(share: ShareResponse, t: T): string {
  const mode = share.flags & SHARE_FLAGS.previewOnly ? "sharing.modePreview" : share.flags & SHARE_FLAGS.downloadOnly ? "sharing.modeDownload" : "sharing.modeBoth";
  const parts = [t(mode)];
  if (share.password_protected) parts.push(t("sharing.protected"));
  if (share.flags & SHARE_FLAGS.singleDownload) parts.push(t("sharing.single"));
  if (share.expiration_date) parts.push(t("sharing.until", { date: new Date(share.expiration_date).toLocaleDateString() }));
  return parts.join(" · ");
}

const ACCESS_KINDS: Record<string, MessageKey> = { preview: "sharing.kind.preview", visit: "sharing.kind.visit", refused: "sharing.kind.refused" };

function ShareActivityList({ shareId }: { shareId: number }) {
  const t = useT();
  const activity = useQuery(shareActivityQuery(shareId));
  if (activity.isPending) return <p className={styles.muted}>{t("common.loading")}</p>;
  if (activity.isError) return <p role="alert">{t("error.generic")}</p>;
  const a = activity.data;
  return (
    <div className={styles.activity} data-testid="share-activity">
      <p>{t("sharing.totals", { downloads: a.downloads, previews: a.previews, users: a.users })}</p>
      {a.refused > 0 && <p>{t("sharing.refusedTotal", { refused: a.refused })}</p>}
      <ul className={styles.activityList}>
        {a.objects.map((access) => (
          <li key={access.id}>
            {t(ACCESS_KINDS[access.kind] ?? "sharing.kind.download")}
            {access.file_name ? ` · ${access.file_name}` : ""} · <LocalTime iso={access.date} />
            {eventEnv(access.env).browser ? ` · ${eventEnv(access.env).browser}` : ""}
          </li>
        ))}
      </ul>
    </div>
  );
}
