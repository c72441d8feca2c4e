"use client";

import type { CSSProperties } from "react";
import { AUTO_FIELD_TYPES } from "@/lib/contracts/signatures";
import { useT } from "@/lib/i18n/provider";
import type { Translate } from "@/lib/i18n/translate";
import type { PublicSigningResponse, SignatureCapture, SignatureFieldResponse } from "@/lib/queries/signatures";
import { SignaturePreview } from "./signature-pad";
import styles from "./signatures.module.css";

export type Values = Record<number, string | boolean>;

/** Filled by the platform (the signer's name, address, the date) or prefilled read-only: shown, never sent. */
export const isFixedField = (field: SignatureFieldResponse) => field.read_only || (AUTO_FIELD_TYPES as readonly string[]).includes(field.type);
/** Filled by the signature itself: the stamp, and the initials (the server takes them from the signer's name). */
export const isSignatureField = (field: SignatureFieldResponse) => field.type === "signature" || field.type === "initials";

/** As the server stamps them when the signer gives none: the first letters of their names. */
export const initialsOf = (actor: { first_name: string; last_name: string }) => [actor.first_name, actor.last_name].map((n) => [...n.trim()][0]?.toLocaleUpperCase() ?? "").join("");

/** The fields in reading order: document by document, page by page, top to bottom, left to right. */
export function readingOrder(documents: PublicSigningResponse["documents"]): SignatureFieldResponse[] {
  return documents.flatMap((d) => [...d.fields].sort((a, b) => a.page - b.page || b.y + b.height - (a.y + a.height) || a.x - b.x));
}

/** The values the page starts with: prefilled answers, and what the platform will fill (a preview of the date). */
export function initialValues(fields: SignatureFieldResponse[], actor: PublicSigningResponse["actor"]): Values {
  const out: Values = {};
  for (const f of fields) {
    if (f.type === "full_name") out[f.id] = `${actor.first_name} ${actor.last_name}`.trim();
    else if (f.type === "email") out[f.id] = actor.email;
    else if (f.type === "date_signed") out[f.id] = new Intl.DateTimeFormat(undefined, { dateStyle: "long" }).format(new Date());
    else if (f.type === "checkbox" && f.default_value) out[f.id] = f.default_value === "true";
    else if (f.default_value) out[f.id] = f.default_value;
  }
  return out;
}

export function isFilled(field: SignatureFieldResponse, values: Values, signature: SignatureCapture | null) {
  if (isSignatureField(field)) return signature !== null;
  if (isFixedField(field)) return true;
  const value = values[field.id];
  if (field.type === "checkbox") return value === true;
  if (field.type === "number") return typeof value === "string" && /^[-+]?\d+(?:[.,]\d+)?$/.test(value.trim());
  return typeof value === "string" && value.trim() !== "";
}

/** The body's `fields`: what the signer answered (the platform fills the rest). */
export const answers = (fields: SignatureFieldResponse[], values: Values) =>
  fields.filter((f) => !isSignatureField(f) && !isFixedField(f)).map((f) => ({ id: f.id, value: f.type === "checkbox" ? values[f.id] === true : String(values[f.id] ?? "") }));

/** What a field asks, for its control's name: its question, else its type, whether it is required, and its page. */
export function fieldLabel(field: SignatureFieldResponse, t: Translate): string {
  const page = { page: field.page };
  if (field.question) return field.question;
  if (field.type === "checkbox") return t(field.optional ? "sign.field.checkboxOptional" : "sign.field.checkbox", page);
  if (field.type === "text") return t(field.optional ? "sign.field.textOptional" : "sign.field.text", page);
  return t(field.optional ? "sign.field.optional" : "sign.field.required", { type: t(`signatures.fieldType.${field.type}`), page: field.page });
}

type FieldProps = {
  field: SignatureFieldResponse;
  /** Its place over the page (fieldBox), or its size in the phone's field step. */
  box: CSSProperties;
  /** Tells this control's radio group from another control of the same field. */
  idPrefix?: string;
  value: string | boolean | undefined;
  signature: SignatureCapture | null;
  initials: string;
  isCurrent: boolean;
  isInvalid: boolean;
  onValue: (value: string | boolean) => void;
  onSignature: () => void;
  onFocus: () => void;
};

/** One field over the page, as the control its type calls for. */
export function FieldControl({ field, box, idPrefix = "", value, signature, initials, isCurrent, isInvalid, onValue, onSignature, onFocus }: FieldProps) {
  const t = useT();
  const classes = [styles.signField, isCurrent && styles.signFieldCurrent, isInvalid && styles.signFieldInvalid].filter(Boolean).join(" ");
  const common = { "data-sign-field": field.id, onFocus, "aria-invalid": isInvalid || undefined } as const;
  const page = { page: field.page };
  const type = t(`signatures.fieldType.${field.type}`);
  const label = fieldLabel(field, t);
  const text = typeof value === "string" ? value : "";
  const fontSize = field.font_size ?? (typeof box.height === "number" ? Math.max(10, Math.min(16, box.height * 0.6)) : 16);
  if (field.type === "signature")
    return (
      <button type="button" className={`${classes} ${styles.signFieldSignature}`} style={box} onClick={onSignature} aria-label={signature ? t("sign.field.signatureDone", page) : t("sign.field.signature", page)} data-testid="sign-field-signature" {...common}>
        {signature ? <SignaturePreview capture={signature} className={styles.signatureInField} /> : <span className={styles.signHere}>{t("sign.field.signHere")}</span>}
      </button>
    );
  if (field.type === "initials")
    return (
      <button type="button" className={`${classes} ${styles.signFieldSignature}`} style={box} onClick={onSignature} aria-label={t("sign.field.initials", page)} data-testid="sign-field-initials" {...common}>
        <span className={styles.signHere}>{signature ? initials : t("sign.field.initialHere")}</span>
      </button>
    );
  if (isFixedField(field))
    return (
      <span className={`${classes} ${styles.signFixed}`} style={{ ...box, fontSize }} title={t("sign.field.fixed", { type, page: field.page })} data-testid={`sign-field-${field.type}`} {...common} tabIndex={0}>
        {field.type === "checkbox" ? (value === true ? "☑" : "☐") : text}
      </span>
    );
  if (field.type === "checkbox")
    return (
      <span className={classes} style={box}>
        <input type="checkbox" className={styles.signCheckbox} checked={value === true} onChange={(e) => onValue(e.target.checked)} aria-label={label} title={label} data-testid="sign-field-checkbox" {...common} />
      </span>
    );
  if (field.type === "dropdown")
    return (
      <select className={`${classes} ${styles.signText}`} style={{ ...box, fontSize }} value={text} onChange={(e) => onValue(e.target.value)} aria-label={label} title={label} data-testid="sign-field-dropdown" {...common}>
        <option value="">{field.optional ? "—" : t("sign.field.choose")}</option>
        {(field.options ?? []).map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  if (field.type === "radio")
    return (
      <fieldset className={`${classes} ${styles.signRadio}`} style={box} aria-label={label} data-testid="sign-field-radio" {...common}>
        {(field.options ?? []).map((o) => (
          <label key={o}>
            <input type="radio" name={`${idPrefix}field-${field.id}`} value={o} checked={text === o} onChange={() => onValue(o)} />
            {o}
          </label>
        ))}
      </fieldset>
    );
  return (
    <input
      type="text"
      inputMode={field.type === "number" ? "decimal" : undefined}
      className={`${classes} ${styles.signText}`}
      style={{ ...box, fontSize }}
      value={text}
      maxLength={field.max_length ?? 1000}
      onChange={(e) => onValue(e.target.value)}
      aria-label={label}
      placeholder={field.question ?? ""}
      title={label}
      data-testid={`sign-field-${field.type}`}
      {...common}
    />
  );
}
