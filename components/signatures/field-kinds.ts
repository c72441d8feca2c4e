import type { FieldType } from "@/lib/contracts/signatures";
import type { MessageKey } from "@/lib/i18n/translate";

/** The palette's order: the signer's marks, what the platform fills, then what the signer answers. */
export const PALETTE: FieldType[] = ["signature", "initials", "full_name", "email", "date_signed", "text", "number", "checkbox", "radio", "dropdown"];

/** Sizes in PDF points: the signature stamp is 200×70 as the contract's workflow fields are. */
export const DEFAULT_SIZE: Record<FieldType, { width: number; height: number }> = {
  signature: { width: 200, height: 70 },
  initials: { width: 80, height: 40 },
  full_name: { width: 180, height: 24 },
  email: { width: 200, height: 24 },
  date_signed: { width: 140, height: 24 },
  text: { width: 180, height: 24 },
  number: { width: 100, height: 24 },
  checkbox: { width: 20, height: 20 },
  radio: { width: 150, height: 60 },
  dropdown: { width: 150, height: 24 },
};

export const FIELD_LABELS: Record<FieldType, MessageKey> = {
  signature: "signatures.fieldType.signature",
  initials: "signatures.fieldType.initials",
  full_name: "signatures.fieldType.full_name",
  email: "signatures.fieldType.email",
  date_signed: "signatures.fieldType.date_signed",
  text: "signatures.fieldType.text",
  number: "signatures.fieldType.number",
  checkbox: "signatures.fieldType.checkbox",
  radio: "signatures.fieldType.radio",
  dropdown: "signatures.fieldType.dropdown",
};

/** Settings each type takes in the builder's form. */
export const hasChoices = (type: FieldType) => type === "radio" || type === "dropdown";
export const isAnswered = (type: FieldType) => ["text", "number", "checkbox", "radio", "dropdown"].includes(type);
export const hasText = (type: FieldType) => !["signature", "initials", "checkbox", "radio"].includes(type);
