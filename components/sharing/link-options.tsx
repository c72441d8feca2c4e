"use client";

import { useId } from "react";
import { LINK_PASSWORD_MIN } from "@/lib/contracts/links";
import { useT } from "@/lib/i18n/provider";
import { SHARE_FLAGS, type ShareChanges, type ShareResponse } from "@/lib/queries/sharing";
import { draftOfGate, EMPTY_GATE_DRAFT, gateOfDraft, ShareGateFields, type GateDraft } from "./share-gate-fields";
import styles from "./sharing.module.css";

export type LinkMode = typeof SHARE_FLAGS.previewAndDownload | typeof SHARE_FLAGS.downloadOnly | typeof SHARE_FLAGS.previewOnly;
const MODES = [
  [SHARE_FLAGS.previewAndDownload, "sharing.modeBoth"],
  [SHARE_FLAGS.downloadOnly, "sharing.modeDownload"],
  [SHARE_FLAGS.previewOnly, "sharing.modePreview"],
] as const;

/** A link's options as the form holds them; `password` is a new one (empty: keep the current one). */
export type LinkDraft = { name: string; mode: LinkMode; usePassword: boolean; password: string; expiration: string; single: boolean; receipt: boolean; gate: GateDraft };

export const EMPTY_LINK_DRAFT: LinkDraft = { name: "", mode: SHARE_FLAGS.previewAndDownload, usePassword: false, password: "", expiration: "", single: false, receipt: false, gate: EMPTY_GATE_DRAFT };

/** The date an <input type="date"> shows for a stored expiry, in the browser's time zone. */
const dayOf = (iso: string | null) => {
  if (!iso) return "";
  const d = new Date(iso);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
};

export const draftOfShare = (share: ShareResponse): LinkDraft => ({
  name: share.name ?? "",
  mode: share.flags & SHARE_FLAGS.previewOnly ? SHARE_FLAGS.previewOnly : share.flags & SHARE_FLAGS.downloadOnly ? SHARE_FLAGS.downloadOnly : SHARE_FLAGS.previewAndDownload,
  usePassword: share.password_protected,
  password: "",
  expiration: dayOf(share.expiration_date),
  single: Boolean(share.flags & SHARE_FLAGS.singleDownload),
  receipt: Boolean(share.flags & SHARE_FLAGS.receipt),
  gate: draftOfGate(share.gate),
});

type Problem = { key: "sharing.passwordShort"; min: number } | { key: "sharing.gate.badEntry"; entry: string };

/**
 * What to send for a draft: to POST /share (no `current`) or PUT /share/(id) (`current`: the link
 * as it is, whose password and SMS code are kept unless changed). A link's day of expiry lasts
 * to its end; a day unchanged is not sent again, so its stored time stays.
 */
export function changesOfDraft(draft: LinkDraft, current?: ShareResponse): { changes: ShareChanges } | { problem: Problem } {
  const keepsPassword = Boolean(current?.password_protected) && draft.usePassword && !draft.password;
  if (draft.usePassword && !keepsPassword && draft.password.length < LINK_PASSWORD_MIN) return { problem: { key: "sharing.passwordShort", min: LINK_PASSWORD_MIN } };
  const gate = gateOfDraft(draft.gate);
  if ("badEntry" in gate) return { problem: { key: "sharing.gate.badEntry", entry: gate.badEntry } };
  const viewOnly = draft.mode === SHARE_FLAGS.previewOnly;
  const flags =
    draft.mode |
    (draft.usePassword ? SHARE_FLAGS.password : 0) |
    ((current?.flags ?? 0) & SHARE_FLAGS.sms) |
    (draft.single && !viewOnly ? SHARE_FLAGS.singleDownload : 0) |
    (draft.receipt && !viewOnly ? SHARE_FLAGS.receipt : 0);
  const changes: ShareChanges = { flags, name: draft.name.trim() || null, ...gate.gate };
  if (draft.usePassword && draft.password) changes.password = draft.password;
  else if (!draft.usePassword && current?.password_protected) changes.password = null;
  if (!current || draft.expiration !== dayOf(current.expiration_date)) changes.expiration_date = draft.expiration ? new Date(`${draft.expiration}T23:59:59`).toISOString() : null;
  return { changes };
}

/** The options of a link, for a new one or an existing one (`protectedNow`: it has a password that an empty field keeps), then its visitor gate. */
export function LinkOptionsFields({ value, onChange, protectedNow = false, title }: { value: LinkDraft; onChange: (next: LinkDraft) => void; protectedNow?: boolean; title?: string }) {
  const t = useT();
  const id = useId();
  const set = (change: Partial<LinkDraft>) => onChange({ ...value, ...change });
  const viewOnly = value.mode === SHARE_FLAGS.previewOnly;
  return (
    <>
      <fieldset className={styles.section}>
        <legend className={styles.heading}>{title ?? t("sharing.options")}</legend>
        <label className={styles.mail} htmlFor={`${id}-name`}>
          {t("sharing.name")}
          <input id={`${id}-name`} className={styles.input} type="text" maxLength={255} value={value.name} onChange={(e) => set({ name: e.target.value })} />
        </label>
        <div role="radiogroup" aria-label={t("sharing.access")} className={styles.options}>
          {MODES.map(([mode, label]) => (
            <label key={mode} className={styles.option}>
              <input type="radio" name={`${id}-mode`} checked={value.mode === mode} onChange={() => set({ mode })} />
              {t(label)}
            </label>
          ))}
        </div>
        <label className={styles.option}>
          <input type="checkbox" checked={value.usePassword} onChange={(e) => set({ usePassword: e.target.checked, password: "" })} />
          {t("sharing.withPassword")}
        </label>
        {value.usePassword && (
          <input
            className={styles.input}
            type="password"
            autoComplete="new-password"
            aria-label={t("sharing.password")}
            placeholder={protectedNow ? t("sharing.passwordKeep") : t("sharing.password")}
            value={value.password}
            onChange={(e) => set({ password: e.target.value })}
          />
        )}
        <div className={styles.option}>
          <label htmlFor={`${id}-expires`}>{t("sharing.expires")}</label>
          <input id={`${id}-expires`} type="date" className={styles.dateInput} value={value.expiration} onChange={(e) => set({ expiration: e.target.value })} />
          {value.expiration && (
            <button type="button" className={styles.textButton} onClick={() => set({ expiration: "" })}>
              {t("sharing.noExpiry")}
            </button>
          )}
        </div>
        <label className={styles.option}>
          <input type="checkbox" checked={value.single && !viewOnly} onChange={(e) => set({ single: e.target.checked })} disabled={viewOnly} />
          {t("sharing.single")}
        </label>
        <label className={styles.option}>
          <input type="checkbox" checked={value.receipt && !viewOnly} onChange={(e) => set({ receipt: e.target.checked })} disabled={viewOnly} />
          {t("sharing.receipt")}
        </label>
      </fieldset>
      <ShareGateFields value={value.gate} onChange={(gate) => set({ gate })} />
    </>
  );
}
