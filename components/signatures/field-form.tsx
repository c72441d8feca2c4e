"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/select";
import { TextField } from "@/components/ui/text-field";
import { useT } from "@/lib/i18n/provider";
import type { FieldInput, SignatureFieldResponse, SignatureResponse } from "@/lib/queries/signatures";
import { FIELD_LABELS, hasChoices, hasText, isAnswered } from "./field-kinds";
import styles from "./signatures.module.css";

type FormValues = {
  page: string;
  x: string;
  y: string;
  width: string;
  height: string;
  signer_id: string;
  optional: boolean;
  question: string;
  options: string;
  default_value: string;
  read_only: boolean;
  font_size: string;
};
type Key = keyof FormValues;

/**
 * The keyboard's way to place a field exactly (its page, position and size in points, its
 * signer) and to set what its type takes: required, a question, choices, a prefilled value
 * (read-only or not), the font size; and to copy it onto every other page.
 */
export function FieldForm({
  field,
  request,
  pages,
  copying,
  onSave,
  onCopy,
  onRemove,
}: {
  field: SignatureFieldResponse;
  request: SignatureResponse;
  pages: { width: number; height: number }[];
  copying: boolean;
  onSave: (patch: Partial<FieldInput>) => void;
  onCopy: () => void;
  onRemove: () => void;
}) {
  const t = useT();
  const [values, setValues] = useState<FormValues>({
    page: String(field.page),
    x: String(field.x),
    y: String(field.y),
    width: String(field.width),
    height: String(field.height),
    signer_id: String(field.signer_id),
    optional: field.optional,
    question: field.question ?? "",
    options: (field.options ?? []).join(", "),
    default_value: field.default_value ?? "",
    read_only: field.read_only,
    font_size: field.font_size ? String(field.font_size) : "",
  });
  const [invalid, setInvalid] = useState<Set<Key>>(new Set());
  const signers = request.actors.filter((a) => a.type === "signer");
  const set = (key: Key) => (e: { target: { value: string } }) => setValues({ ...values, [key]: e.target.value });
  const type = field.type;
  const answered = isAnswered(type);

  function submit(event: FormEvent) {
    event.preventDefault();
    const number = (key: Key) => Number(String(values[key]).replace(",", "."));
    const bad = new Set<Key>();
    const page = number("page");
    const size = pages[page - 1];
    if (!Number.isInteger(page) || !size) bad.add("page");
    const [x, y, width, height] = [number("x"), number("y"), number("width"), number("height")];
    if (!(width > 0) || (size && width > size.width)) bad.add("width");
    if (!(height > 0) || (size && height > size.height)) bad.add("height");
    if (!(x >= 0) || (size && x + width > size.width)) bad.add("x");
    if (!(y >= 0) || (size && y + height > size.height)) bad.add("y");
    const options = values.options
      .split(",")
      .map((o) => o.trim())
      .filter(Boolean);
    if (hasChoices(type) && options.length === 0) bad.add("options");
    const fontSize = values.font_size.trim() ? number("font_size") : null;
    if (fontSize !== null && !(fontSize >= 4 && fontSize <= 72)) bad.add("font_size");
    setInvalid(bad);
    if (bad.size > 0) return;
    onSave({
      page,
      x,
      y,
      width,
      height,
      signer_id: Number(values.signer_id),
      optional: values.optional,
      ...(answered ? { question: values.question.trim() || null, default_value: values.default_value.trim() || null, read_only: values.read_only } : {}),
      ...(hasChoices(type) ? { options } : {}),
      ...(hasText(type) ? { font_size: fontSize } : {}),
    });
  }

  const error = (key: Key) => (invalid.has(key) ? t("signatures.fields.outside") : null);
  const heading = t("signatures.fields.selected", { type: t(FIELD_LABELS[type]) });
  return (
    <form className={styles.fieldForm} onSubmit={submit} noValidate aria-label={heading} data-testid="field-form">
      <h3 className={styles.smallHeading}>{heading}</h3>
      <Select label={t("signatures.fields.signer")} value={values.signer_id} onChange={set("signer_id")} options={signers.map((s) => ({ value: String(s.id), label: `${s.first_name} ${s.last_name}` }))} />
      <div className={styles.grid2}>
        <TextField label={t("signatures.fields.page")} inputMode="numeric" value={values.page} onChange={set("page")} error={invalid.has("page") ? t("common.invalidValue") : null} />
        {hasText(type) ? <TextField label={t("signatures.fields.fontSize")} inputMode="decimal" value={values.font_size} onChange={set("font_size")} error={invalid.has("font_size") ? t("common.invalidValue") : null} /> : <span />}
        <TextField label={t("signatures.fields.x")} inputMode="decimal" value={values.x} onChange={set("x")} error={error("x")} />
        <TextField label={t("signatures.fields.y")} inputMode="decimal" value={values.y} onChange={set("y")} error={error("y")} />
        <TextField label={t("signatures.fields.width")} inputMode="decimal" value={values.width} onChange={set("width")} error={error("width")} />
        <TextField label={t("signatures.fields.height")} inputMode="decimal" value={values.height} onChange={set("height")} error={error("height")} />
      </div>
      <p className={styles.hint}>{t("signatures.fields.coordinatesHint")}</p>
      {answered && type !== "checkbox" && <TextField label={t("signatures.fields.question")} value={values.question} onChange={set("question")} maxLength={500} />}
      {hasChoices(type) && (
        <TextField label={t("signatures.fields.options")} hint={t("signatures.fields.optionsHint")} value={values.options} onChange={set("options")} error={invalid.has("options") ? t("common.invalidValue") : null} />
      )}
      {answered && type !== "checkbox" && <TextField label={t("signatures.fields.defaultValue")} value={values.default_value} onChange={set("default_value")} maxLength={1000} />}
      {answered && type !== "checkbox" && (
        <label className={styles.check}>
          <input type="checkbox" checked={values.read_only} onChange={(e) => setValues({ ...values, read_only: e.target.checked })} />
          {t("signatures.fields.readOnly")}
        </label>
      )}
      {answered && (
        <label className={styles.check}>
          <input type="checkbox" checked={!values.optional} onChange={(e) => setValues({ ...values, optional: !e.target.checked })} />
          {t("signatures.fields.required")}
        </label>
      )}
      <div className={styles.actions}>
        <Button type="submit" size="small">
          {t("signatures.fields.apply")}
        </Button>
        {pages.length > 1 && (
          <Button size="small" variant="secondary" onClick={onCopy} disabled={copying}>
            {t("signatures.fields.copyToPages")}
          </Button>
        )}
        <Button size="small" variant="danger" onClick={onRemove}>
          {t("signatures.fields.remove")}
        </Button>
      </div>
    </form>
  );
}
