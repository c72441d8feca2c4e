"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useState } from "react";
import { LocalTime } from "@/components/local-time";
import { Button } from "@/components/ui/button";
import buttons from "@/components/ui/button.module.css";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { FormStatus } from "@/components/ui/form-status";
import { LINK_PASSWORD_MIN } from "@/lib/contracts/links";
import { useT } from "@/lib/i18n/provider";
import type { MessageKey } from "@/lib/i18n/translate";
import type { Item } from "@/lib/queries/files";
import { linkState, SHARE_FLAGS, shareActivityQuery, sharesQuery, useCreateShare, useDeleteShare, useSendShare, type ShareResponse } from "@/lib/queries/sharing";
import { describeFileError } from "../file-browser/format";
import { CopyField } from "./copy-field";
import { EMPTY_GATE_DRAFT, gateOfDraft, ShareGateEditor, ShareGateFields } from "./share-gate-fields";
import { SendByMail } from "./send-by-mail";
import styles from "./sharing.module.css";

export const STATE_LABELS: Record<ReturnType<typeof linkState>, MessageKey> = {
  active: "sharing.state.active",
  expired: "sharing.state.expired",
  used: "sharing.state.used",
  invalid: "sharing.state.invalid",
};

type Mode = typeof SHARE_FLAGS.previewAndDownload | typeof SHARE_FLAGS.downloadOnly | typeof SHARE_FLAGS.previewOnly;

/** The links to one file or folder: create one with its options, copy it, mail it, see who used it. */
export function ShareDialog({ item, onClose }: { item: Item; onClose: () => void }) {
  const t = useT();
  const id = useId();
  const shares = useQuery(sharesQuery());
  const create = useCreateShare();
  const [mode, setMode] = useState<Mode>(SHARE_FLAGS.previewAndDownload);
  const [password, setPassword] = useState("");
  const [usePassword, setUsePassword] = useState(false);
  const [expiration, setExpiration] = useState("");
  const [single, setSingle] = useState(false);
  const [receipt, setReceipt] = useState(false);
  const [gate, setGate] = useState(EMPTY_GATE_DRAFT);
  const [error, setError] = useState<string | null>(null);
  const [fresh, setFresh] = useState<number | null>(null);

  const mine = (shares.data ?? []).filter((share) =>
    share.roots.some((root) => (item.kind === "file" ? root.is_file && root.guid === item.guid : !root.is_file && root.id === item.id)),
  );

  function submit() {
    if (usePassword && password.length < LINK_PASSWORD_MIN) return setError(t("sharing.passwordShort", { min: LINK_PASSWORD_MIN }));
    const gateInput = gateOfDraft(gate);
    if ("badEntry" in gateInput) return setError(t("sharing.gate.badEntry", { entry: gateInput.badEntry }));
    const flags = mode | (usePassword ? SHARE_FLAGS.password : 0) | (single ? SHARE_FLAGS.singleDownload : 0) | (receipt ? SHARE_FLAGS.receipt : 0);
    create.mutate(
      {
        roots: [{ id: item.id, entity_type: item.kind === "file" ? 1 : 0 }],
        flags,
        ...(usePassword ? { password } : {}),
        ...(expiration ? { expiration_date: new Date(`${expiration}T23:59:59`).toISOString() } : {}),
        ...gateInput.gate,
      },
      {
        onSuccess: (share) => {
          setError(null);
          setPassword("");
          setGate(EMPTY_GATE_DRAFT);
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
      onSubmit={submit}
      footer={<DialogActions cancelLabel={t("common.close")} onCancel={onClose} submitLabel={t("sharing.create")} disabled={create.isPending} />}
    >
      {mine.length > 0 && (
        <section aria-label={t("sharing.existing")} className={styles.section}>
          <h3 className={styles.heading}>{t("sharing.existing")}</h3>
          <ul className={styles.links}>
            {mine.map((share) => (
              <ShareRow key={share.id} share={share} open={share.id === fresh} />
            ))}
          </ul>
        </section>
      )}
      <fieldset className={styles.section}>
        <legend className={styles.heading}>{t("sharing.newLink")}</legend>
        <div role="radiogroup" aria-label={t("sharing.access")} className={styles.options}>
          {(
            [
              [SHARE_FLAGS.previewAndDownload, "sharing.modeBoth"],
              [SHARE_FLAGS.downloadOnly, "sharing.modeDownload"],
              [SHARE_FLAGS.previewOnly, "sharing.modePreview"],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className={styles.option}>
              <input type="radio" name={`${id}-mode`} checked={mode === value} onChange={() => setMode(value)} />
              {t(label)}
            </label>
          ))}
        </div>
        <label className={styles.option}>
          <input type="checkbox" checked={usePassword} onChange={(e) => setUsePassword(e.target.checked)} />
          {t("sharing.withPassword")}
        </label>
        {usePassword && (
          <input className={styles.input} type="password" autoComplete="new-password" aria-label={t("sharing.password")} placeholder={t("sharing.password")} value={password} onChange={(e) => setPassword(e.target.value)} />
        )}
        <label className={styles.option} htmlFor={`${id}-expires`}>
          {t("sharing.expires")}
          <input id={`${id}-expires`} type="date" className={styles.dateInput} value={expiration} onChange={(e) => setExpiration(e.target.value)} />
        </label>
        <label className={styles.option}>
          <input type="checkbox" checked={single} onChange={(e) => setSingle(e.target.checked)} disabled={mode === SHARE_FLAGS.previewOnly} />
          {t("sharing.single")}
        </label>
        <label className={styles.option}>
          <input type="checkbox" checked={receipt} onChange={(e) => setReceipt(e.target.checked)} disabled={mode === SHARE_FLAGS.previewOnly} />
          {t("sharing.receipt")}
        </label>
      </fieldset>
      <ShareGateFields value={gate} onChange={setGate} />
      <FormStatus status={error ? { tone: "error", message: error } : null} />
    </Dialog>
  );
}

export function ShareRow({ share, open = false }: { share: ShareResponse; open?: boolean }) {
  const t = useT();
  const [expanded, setExpanded] = useState<"mail" | "activity" | "gate" | null>(open ? "mail" : null);
  const remove = useDeleteShare();
  const send = useSendShare();
  const state = linkState(share);
  return (
    <li className={styles.link} data-testid="share-row">
      <div className={styles.linkHead}>
        <span className={`${styles.state} ${styles[state]}`}>{t(STATE_LABELS[state])}</span>
        <span className={styles.muted}>{describeShare(share, t)}</span>
      </div>
      <CopyField label={t("sharing.address")} value={share.url} />
      <div className={styles.linkActions}>
        <Button size="small" variant="ghost" aria-expanded={expanded === "mail"} onClick={() => setExpanded(expanded === "mail" ? null : "mail")}>
          {t("sharing.sendByMail")}
        </Button>
        <Button size="small" variant="ghost" aria-expanded={expanded === "activity"} onClick={() => setExpanded(expanded === "activity" ? null : "activity")}>
          {t("sharing.activity")}
        </Button>
        <Link href={`/links/${share.id}/analytics`} className={`${buttons.button} ${buttons.ghost} ${buttons.small}`}>
          {t("engagement.analytics")}
        </Link>
        <Button size="small" variant="ghost" aria-expanded={expanded === "gate"} onClick={() => setExpanded(expanded === "gate" ? null : "gate")}>
          {t("sharing.gate.title")}
        </Button>
        <Button size="small" variant="ghost" onClick={() => remove.mutate(share.id)} aria-label={t("sharing.deleteLink")}>
          {t("sharing.delete")}
        </Button>
      </div>
      {expanded === "mail" && <SendByMail pending={send.isPending} send={(input) => send.mutateAsync({ shareId: share.id, ...input })} />}
      {expanded === "activity" && <ShareActivityList shareId={share.id} />}
      {expanded === "gate" && <ShareGateEditor share={share} />}
    </li>
  );
}

type T = ReturnType<typeof useT>;

function describeShare(share: ShareResponse, t: T): string {
  const mode = share.flags & SHARE_FLAGS.previewOnly ? "sharing.modePreview" : share.flags & SHARE_FLAGS.downloadOnly ? "sharing.modeDownload" : "sharing.modeBoth";
  const parts = [t(mode)];
  if (share.password_protected) parts.push(t("sharing.protected"));
  if (share.flags & SHARE_FLAGS.singleDownload) parts.push(t("sharing.single"));
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
            {access.env?.browser ? ` · ${access.env.browser}` : ""}
          </li>
        ))}
      </ul>
    </div>
  );
}
