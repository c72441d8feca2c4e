"use client";

import { useId } from "react";
import { useT } from "@/lib/i18n/provider";
import type { GateOptions, ShareResponse } from "@/lib/queries/sharing";
import styles from "./sharing.module.css";

/** The gate options as the form holds them: the lists as typed (one per line or comma). */
export type GateDraft = { askEmail: boolean; verifyEmail: boolean; allow: string; deny: string; agreement: string; watermark: boolean; notify: boolean };

export const EMPTY_GATE_DRAFT: GateDraft = { askEmail: false, verifyEmail: false, allow: "", deny: "", agreement: "", watermark: false, notify: false };

export const draftOfGate = (gate: ShareResponse["gate"]): GateDraft => ({
  askEmail: gate.ask_email === 1,
  verifyEmail: gate.verify_email === 1,
  allow: gate.allow.join("\n"),
  deny: gate.deny.join("\n"),
  agreement: gate.agreement ?? "",
  watermark: gate.watermark === 1,
  notify: gate.notify_view === 1,
});

const ENTRY = /^([^\s@]+@[^\s@]+\.[^\s@]+|@[^\s@]+\.[^\s@]+)$/;
const entriesOf = (text: string) =>
  text
    .split(/[\n,;]+/)
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);

/** The options to send (api.md's gate fields), or the first list entry that is neither an address nor an @domain. */
export function gateOfDraft(draft: GateDraft): { gate: GateOptions } | { badEntry: string } {
  const allow = entriesOf(draft.allow);
  const deny = entriesOf(draft.deny);
  const badEntry = [...allow, ...deny].find((entry) => !ENTRY.test(entry));
  if (badEntry) return { badEntry };
  const flag = (on: boolean) => (on ? 1 : 0) as 0 | 1;
  return {
    gate: {
      ask_email: flag(draft.askEmail || draft.verifyEmail || allow.length > 0 || deny.length > 0),
      verify_email: flag(draft.verifyEmail),
      allow,
      deny,
      agreement: draft.agreement.trim() || null,
      watermark: flag(draft.watermark),
      notify_view: flag(draft.notify),
    },
  };
}

/** The "Visitors" options of a link: who may open it and what they accept first (issue 30). */
export function ShareGateFields({ value, onChange }: { value: GateDraft; onChange: (next: GateDraft) => void }) {
  const t = useT();
  const id = useId();
  const set = (change: Partial<GateDraft>) => onChange({ ...value, ...change });
  const listed = entriesOf(value.allow).length > 0 || entriesOf(value.deny).length > 0;
  return (
    <fieldset className={styles.section} data-testid="share-gate-fields">
      <legend className={styles.heading}>{t("sharing.gate.title")}</legend>
      <p className={styles.muted}>{t("sharing.gate.intro")}</p>
      <label className={styles.option}>
        <input type="checkbox" name="ask_email" checked={value.askEmail || value.verifyEmail || listed} disabled={value.verifyEmail || listed} onChange={(e) => set({ askEmail: e.target.checked })} />
        {t("sharing.gate.askEmail")}
      </label>
      <label className={styles.option}>
        <input type="checkbox" name="verify_email" checked={value.verifyEmail} onChange={(e) => set({ verifyEmail: e.target.checked, ...(e.target.checked ? { askEmail: true } : {}) })} />
        {t("sharing.gate.verifyEmail")}
      </label>
      <label className={styles.mail} htmlFor={`${id}-allow`}>
        {t("sharing.gate.allow")}
        <textarea id={`${id}-allow`} name="allow" className={styles.input} rows={2} aria-describedby={`${id}-lists`} value={value.allow} onChange={(e) => set({ allow: e.target.value })} />
      </label>
      <label className={styles.mail} htmlFor={`${id}-deny`}>
        {t("sharing.gate.deny")}
        <textarea id={`${id}-deny`} name="deny" className={styles.input} rows={2} aria-describedby={`${id}-lists`} value={value.deny} onChange={(e) => set({ deny: e.target.value })} />
      </label>
      <p id={`${id}-lists`} className={styles.muted}>
        {t("sharing.gate.listHint")}
      </p>
      <label className={styles.mail} htmlFor={`${id}-agreement`}>
        {t("sharing.gate.agreement")}
        <textarea id={`${id}-agreement`} name="agreement" className={styles.input} rows={3} maxLength={20_000} value={value.agreement} onChange={(e) => set({ agreement: e.target.value })} />
      </label>
      <label className={styles.option}>
        <input type="checkbox" name="watermark" checked={value.watermark} onChange={(e) => set({ watermark: e.target.checked })} />
        {t("sharing.gate.watermark")}
      </label>
      <label className={styles.option}>
        <input type="checkbox" name="notify_view" checked={value.notify} onChange={(e) => set({ notify: e.target.checked })} />
        {t("sharing.gate.notify")}
      </label>
    </fieldset>
  );
}
