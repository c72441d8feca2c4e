"use client";

import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from "react";
import { Button } from "@/components/ui/button";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { Select } from "@/components/ui/select";
import { TextField } from "@/components/ui/text-field";
import type { FieldType } from "@/lib/contracts/signatures";
import { useT } from "@/lib/i18n/provider";
import type { MessageKey } from "@/lib/i18n/translate";
import {
  documentUrl,
  useAddField,
  useDeleteField,
  useMoveCachedField,
  useUpdateField,
  type SignatureFieldResponse,
  type SignatureResponse,
} from "@/lib/queries/signatures";
import { signerColour } from "./builder-actors";
import { describeSignatureError } from "./describe-error";
import { fieldBox, PdfPage, useAvailableWidth, usePdfDocument } from "./pdf-page";
import styles from "./signatures.module.css";

/** Sizes in PDF points: the signature stamp is 200×70 as the contract's workflow fields are. */
const DEFAULT_SIZE: Record<FieldType, { width: number; height: number }> = {
  signature: { width: 200, height: 70 },
  checkbox: { width: 20, height: 20 },
  text: { width: 180, height: 24 },
};

export const FIELD_LABELS: Record<FieldType, MessageKey> = {
  signature: "signatures.fieldType.signature",
  checkbox: "signatures.fieldType.checkbox",
  text: "signatures.fieldType.text",
};

/** The widest a page is drawn, in CSS pixels. */
const MAX_PAGE_WIDTH = 760;
/** Arrow keys move a field by 1 point, with Shift by 10; the move is saved once the keys rest. */
const SAVE_DELAY = 400;

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), Math.max(min, max));
const round = (value: number) => Math.round(value * 10) / 10;

/**
 * Fields placed on the documents' pages, rendered with pdf.js: dragged from the palette onto a
 * page (mouse, touch or pen), moved by dragging, or with the keyboard: a palette button adds a
 * field in the middle of the page, arrow keys move the focused field, and a form sets its page,
 * position and size in points.
 */
export function FieldEditor({ request }: { request: SignatureResponse }) {
  const t = useT();
  const documents = request.documents;
  const [documentIndex, setDocumentIndex] = useState(0);
  const document = documents[Math.min(documentIndex, documents.length - 1)];
  const [pageNumber, setPageNumber] = useState(1);
  const pageCount = document?.pages.length ?? 0;
  const page = Math.min(pageNumber, Math.max(1, pageCount));
  const signers = request.actors.filter((a) => a.type === "signer").sort((a, b) => a.position - b.position);
  const [chosenSigner, setChosenSigner] = useState<number | null>(null);
  const signerId = signers.some((s) => s.id === chosenSigner) ? chosenSigner! : (signers[0]?.id ?? null);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [status, setStatus] = useState<Status>(null);
  const [ghost, setGhost] = useState<{ type: FieldType; x: number; y: number } | null>(null);
  const suppressClick = useRef(false);
  const overlay = useRef<HTMLDivElement | null>(null);
  const fieldDrag = useRef<{ id: number; startX: number; startY: number; fieldX: number; fieldY: number; moved: boolean } | null>(null);
  const nudge = useRef<{ id: number; x: number; y: number; timer: ReturnType<typeof setTimeout> } | null>(null);

  const { doc: pdf, failed } = usePdfDocument(document ? documentUrl(document) : null);
  const [measure, available] = useAvailableWidth<HTMLDivElement>();
  const size = document?.pages[page - 1] ?? { width: 612, height: 792 };
  const scale = Math.min(available || 600, MAX_PAGE_WIDTH) / size.width;

  const addField = useAddField(request.id);
  const updateField = useUpdateField(request.id);
  const deleteField = useDeleteField(request.id);
  const moveCached = useMoveCachedField(request.id);

  const allFields = documents.flatMap((d) => d.fields);
  const selected = allFields.find((f) => f.id === selectedId) ?? null;
  const fields = document ? document.fields.filter((f) => f.page === page) : [];
  const fail = (e: unknown) => setStatus({ tone: "error", message: describeSignatureError(e, t) });

  // A keyboard move still waiting when the editor goes away is saved, not lost.
  const flushNudge = useRef<() => void>(() => {});
  useEffect(
    () => () => {
      if (!nudge.current) return;
      clearTimeout(nudge.current.timer);
      flushNudge.current();
    },
    [],
  );

  /** A keyboard move still waiting is dropped when the form saves the same field, or the field is removed. */
  function dropNudge(fieldId: number) {
    if (nudge.current?.id !== fieldId) return;
    clearTimeout(nudge.current.timer);
    nudge.current = null;
  }

  // A field just added takes the focus once it is drawn (after the request's refetch renders it).
  const [focusPending, setFocusPending] = useState<number | null>(null);
  useEffect(() => {
    if (focusPending === null) return;
    const element = overlay.current?.querySelector<HTMLElement>(`[data-field-id="${focusPending}"]`);
    if (!element) return;
    element.focus();
    setFocusPending(null);
  }, [focusPending, request]);

  function add(type: FieldType, center?: { x: number; y: number }) {
    if (!document || signerId === null) return;
    const box = DEFAULT_SIZE[type];
    const at = center ?? { x: size.width / 2, y: size.height / 2 };
    const field = {
      type,
      page,
      x: round(clamp(at.x - box.width / 2, 0, size.width - box.width)),
      y: round(clamp(at.y - box.height / 2, 0, size.height - box.height)),
      ...box,
      signer_id: signerId,
    };
    addField.mutate(
      { documentId: document.id, field },
      {
        onSuccess: (created) => {
          setSelectedId(created.id);
          setStatus({ tone: "success", message: t("signatures.fields.added", { type: t(FIELD_LABELS[type]), page }) });
          setFocusPending(created.id);
        },
        onError: fail,
      },
    );
  }

  /** A point of the viewport in PDF points of the page shown, or null when it is not over the page. */
  function toPagePoint(clientX: number, clientY: number) {
    const rect = overlay.current?.getBoundingClientRect();
    if (!rect || clientX < rect.left || clientX > rect.right || clientY < rect.top || clientY > rect.bottom) return null;
    return { x: (clientX - rect.left) / scale, y: size.height - (clientY - rect.top) / scale };
  }

  function startPaletteDrag(type: FieldType, event: ReactPointerEvent<HTMLButtonElement>) {
    if (event.button !== 0 || signerId === null) return;
    const start = { x: event.clientX, y: event.clientY };
    let moved = false;
    const onMove = (e: PointerEvent) => {
      if (!moved && Math.hypot(e.clientX - start.x, e.clientY - start.y) > 4) moved = true;
      if (moved) setGhost({ type, x: e.clientX, y: e.clientY });
    };
    const finish = (e: PointerEvent) => {
      window.removeEventListener("pointermove", onMove);
      window.removeEventListener("pointerup", finish);
      window.removeEventListener("pointercancel", finish);
      setGhost(null);
      if (!moved) return;
      // The click that follows a drag must not add a second field.
      suppressClick.current = true;
      setTimeout(() => (suppressClick.current = false), 0);
      const point = e.type === "pointerup" ? toPagePoint(e.clientX, e.clientY) : null;
      if (point) add(type, point);
    };
    window.addEventListener("pointermove", onMove);
    window.addEventListener("pointerup", finish);
    window.addEventListener("pointercancel", finish);
  }

  function onFieldPointerDown(field: SignatureFieldResponse, event: ReactPointerEvent<HTMLButtonElement>) {
    if (event.button !== 0) return;
    setSelectedId(field.id);
    // A keyboard move still waiting is saved now: a click without a drag saves nothing itself.
    if (nudge.current?.id === field.id) {
      clearTimeout(nudge.current.timer);
      flushNudge.current();
    }
    event.currentTarget.setPointerCapture(event.pointerId);
    fieldDrag.current = { id: field.id, startX: event.clientX, startY: event.clientY, fieldX: field.x, fieldY: field.y, moved: false };
  }

  function onFieldPointerMove(field: SignatureFieldResponse, event: ReactPointerEvent<HTMLButtonElement>) {
    const drag = fieldDrag.current;
    if (!drag || drag.id !== field.id) return;
    const dx = event.clientX - drag.startX;
    const dy = event.clientY - drag.startY;
    if (!drag.moved && Math.hypot(dx, dy) < 3) return;
    drag.moved = true;
    moveCached(field.id, {
      x: round(clamp(drag.fieldX + dx / scale, 0, size.width - field.width)),
      y: round(clamp(drag.fieldY - dy / scale, 0, size.height - field.height)),
    });
  }

  function onFieldPointerUp(field: SignatureFieldResponse) {
    const drag = fieldDrag.current;
    fieldDrag.current = null;
    if (!drag?.moved) return;
    updateField.mutate({ field, patch: { x: field.x, y: field.y } }, { onError: fail });
  }

  function onFieldKey(field: SignatureFieldResponse, event: KeyboardEvent<HTMLButtonElement>) {
    const steps: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (event.key === "Delete" || event.key === "Backspace") {
      event.preventDefault();
      remove(field);
      return;
    }
    const step = steps[event.key];
    if (!step) return;
    event.preventDefault();
    const factor = event.shiftKey ? 10 : 1;
    const from = nudge.current?.id === field.id ? nudge.current : { x: field.x, y: field.y };
    const x = round(clamp(from.x + step[0] * factor, 0, size.width - field.width));
    const y = round(clamp(from.y + step[1] * factor, 0, size.height - field.height));
    if (nudge.current) {
      clearTimeout(nudge.current.timer);
      // Another field's move still waiting is saved before this one starts.
      if (nudge.current.id !== field.id) flushNudge.current();
    }
    moveCached(field.id, { x, y });
    const save = () => {
      nudge.current = null;
      updateField.mutate({ field, patch: { x, y } }, { onError: fail });
    };
    flushNudge.current = save;
    nudge.current = { id: field.id, x, y, timer: setTimeout(save, SAVE_DELAY) };
  }

  function remove(field: SignatureFieldResponse) {
    dropNudge(field.id);
    deleteField.mutate(field, {
      onSuccess: () => {
        setSelectedId(null);
        setStatus({ tone: "info", message: t("signatures.fields.removed") });
      },
      onError: fail,
    });
  }

  if (!document) return <p className={styles.muted}>{t("signatures.fields.noDocument")}</p>;
  const actorName = (id: number) => {
    const actor = request.actors.find((a) => a.id === id);
    return actor ? `${actor.first_name} ${actor.last_name}` : "?";
  };

  return (
    <div className={styles.editor}>
      <div className={styles.editorSide}>
        {signers.length === 0 ? (
          <p className={styles.muted}>{t("signatures.fields.noSigner")}</p>
        ) : (
          <Select
            label={t("signatures.fields.forSigner")}
            value={String(signerId)}
            onChange={(e) => setChosenSigner(Number(e.target.value))}
            options={signers.map((s) => ({ value: String(s.id), label: `${s.first_name} ${s.last_name}` }))}
          />
        )}
        <div className={styles.palette} role="group" aria-label={t("signatures.fields.palette")}>
          <p className={styles.hint}>{t("signatures.fields.paletteHint")}</p>
          {(["signature", "checkbox", "text"] as const).map((type) => (
            <button
              key={type}
              type="button"
              className={styles.paletteItem}
              disabled={signerId === null || addField.isPending}
              style={signerId !== null ? { borderColor: signerColour(request, signerId) } : undefined}
              onPointerDown={(e) => startPaletteDrag(type, e)}
              onClick={() => {
                if (suppressClick.current) return;
                add(type);
              }}
              data-testid={`palette-${type}`}
              aria-label={t("signatures.fields.addType", { type: t(FIELD_LABELS[type]) })}
            >
              <FieldIcon type={type} />
              {t(FIELD_LABELS[type])}
            </button>
          ))}
        </div>
        {selected ? (
          <FieldForm
            key={`${selected.id}:${selected.page}:${selected.x}:${selected.y}:${selected.width}:${selected.height}:${selected.signer_id}`}
            field={selected}
            request={request}
            pages={request.documents.find((d) => d.id === selected.document_id)?.pages ?? []}
            onSave={(patch) => {
              dropNudge(selected.id);
              updateField.mutate(
                { field: selected, patch },
                {
                  onSuccess: () => {
                    setStatus({ tone: "success", message: t("signatures.fields.saved") });
                    if (patch.page) setPageNumber(patch.page);
                  },
                  onError: fail,
                },
              );
            }}
            onRemove={() => remove(selected)}
          />
        ) : (
          <p className={styles.muted}>{t("signatures.fields.selectHint")}</p>
        )}
        <FormStatus status={status} />
      </div>

      <div className={styles.editorMain}>
        {documents.length > 1 && (
          <div className={styles.tabs} role="group" aria-label={t("signatures.fields.documents")}>
            {documents.map((d, i) => (
              <button
                key={d.id}
                type="button"
                className={styles.tab}
                aria-pressed={d.id === document.id}
                onClick={() => {
                  setDocumentIndex(i);
                  setPageNumber(1);
                }}
              >
                {d.name}
              </button>
            ))}
          </div>
        )}
        <div className={styles.pageBar} role="toolbar" aria-label={t("signatures.fields.pages")}>
          <Button size="small" variant="ghost" onClick={() => setPageNumber(Math.max(1, page - 1))} disabled={page <= 1} aria-label={t("preview.previousPage")}>
            ‹
          </Button>
          <span data-testid="builder-page">{t("preview.pageOf", { page, pages: pageCount })}</span>
          <Button size="small" variant="ghost" onClick={() => setPageNumber(Math.min(pageCount, page + 1))} disabled={page >= pageCount} aria-label={t("preview.nextPage")}>
            ›
          </Button>
          <span className={styles.muted}>{t("signatures.fields.count", { count: document.fields.length })}</span>
        </div>
        {failed && <p role="alert">{t("preview.failed")}</p>}
        <div className={styles.pageScroller} ref={measure}>
          <PdfPage
            doc={pdf}
            number={page}
            size={size}
            scale={scale}
            label={t("preview.pageLabel", { name: document.name, page })}
            overlayRef={(element) => {
              overlay.current = element;
            }}
            overlayTestId="builder-page-overlay"
          >
            {fields.map((field) => {
              const box = fieldBox(field, size.height, scale);
              const name = actorName(field.signer_id);
              return (
                <button
                  key={field.id}
                  type="button"
                  className={`${styles.placedField} ${field.type === "checkbox" ? styles.placedCheckbox : ""}`}
                  style={{ ...box, borderColor: signerColour(request, field.signer_id), color: signerColour(request, field.signer_id) }}
                  aria-pressed={field.id === selectedId}
                  aria-label={t("signatures.fields.fieldLabel", { type: t(FIELD_LABELS[field.type]), name, page: field.page, x: Math.round(field.x), y: Math.round(field.y) })}
                  data-field-id={field.id}
                  data-testid="placed-field"
                  onPointerDown={(e) => onFieldPointerDown(field, e)}
                  onPointerMove={(e) => onFieldPointerMove(field, e)}
                  onPointerUp={() => onFieldPointerUp(field)}
                  onPointerCancel={() => (fieldDrag.current = null)}
                  onFocus={() => setSelectedId(field.id)}
                  onKeyDown={(e) => onFieldKey(field, e)}
                >
                  {field.type !== "checkbox" && (
                    <span className={styles.placedText}>
                      {t(FIELD_LABELS[field.type])} · {name}
                    </span>
                  )}
                </button>
              );
            })}
          </PdfPage>
        </div>
      </div>
      {ghost && (
        <div className={styles.ghost} style={{ left: ghost.x, top: ghost.y }} aria-hidden="true">
          {t(FIELD_LABELS[ghost.type])}
        </div>
      )}
    </div>
  );
}

type FormValues = { page: string; x: string; y: string; width: string; height: string; signer_id: string; optional: boolean; question: string };

/** The keyboard's way to place a field exactly: its page, position and size in points, and its signer. */
function FieldForm({
  field,
  request,
  pages,
  onSave,
  onRemove,
}: {
  field: SignatureFieldResponse;
  request: SignatureResponse;
  pages: { width: number; height: number }[];
  onSave: (patch: Partial<SignatureFieldResponse>) => void;
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
  });
  const [invalid, setInvalid] = useState<Set<keyof FormValues>>(new Set());
  const signers = request.actors.filter((a) => a.type === "signer");
  const set = (key: keyof FormValues) => (e: { target: { value: string } }) => setValues({ ...values, [key]: e.target.value });

  function submit(event: FormEvent) {
    event.preventDefault();
    const number = (key: keyof FormValues) => Number(String(values[key]).replace(",", "."));
    const bad = new Set<keyof FormValues>();
    const page = number("page");
    const size = pages[page - 1];
    if (!Number.isInteger(page) || !size) bad.add("page");
    const [x, y, width, height] = [number("x"), number("y"), number("width"), number("height")];
    if (!(width > 0) || (size && width > size.width)) bad.add("width");
    if (!(height > 0) || (size && height > size.height)) bad.add("height");
    if (!(x >= 0) || (size && x + width > size.width)) bad.add("x");
    if (!(y >= 0) || (size && y + height > size.height)) bad.add("y");
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
      ...(field.type === "text" ? { question: values.question.trim() || null } : {}),
    });
  }

  const error = (key: keyof FormValues) => (invalid.has(key) ? t("signatures.fields.outside") : null);
  return (
    <form className={styles.fieldForm} onSubmit={submit} noValidate aria-label={t("signatures.fields.selected", { type: t(FIELD_LABELS[field.type]) })} data-testid="field-form">
      <h3 className={styles.smallHeading}>{t("signatures.fields.selected", { type: t(FIELD_LABELS[field.type]) })}</h3>
      <Select label={t("signatures.fields.signer")} value={values.signer_id} onChange={set("signer_id")} options={signers.map((s) => ({ value: String(s.id), label: `${s.first_name} ${s.last_name}` }))} />
      <div className={styles.grid2}>
        <TextField label={t("signatures.fields.page")} inputMode="numeric" value={values.page} onChange={set("page")} error={invalid.has("page") ? t("common.invalidValue") : null} />
        <span />
        <TextField label={t("signatures.fields.x")} inputMode="decimal" value={values.x} onChange={set("x")} error={error("x")} />
        <TextField label={t("signatures.fields.y")} inputMode="decimal" value={values.y} onChange={set("y")} error={error("y")} />
        <TextField label={t("signatures.fields.width")} inputMode="decimal" value={values.width} onChange={set("width")} error={error("width")} />
        <TextField label={t("signatures.fields.height")} inputMode="decimal" value={values.height} onChange={set("height")} error={error("height")} />
      </div>
      <p className={styles.hint}>{t("signatures.fields.coordinatesHint")}</p>
      {field.type === "text" && <TextField label={t("signatures.fields.question")} value={values.question} onChange={set("question")} maxLength={500} />}
      {field.type !== "signature" && (
        <label className={styles.check}>
          <input type="checkbox" checked={!values.optional} onChange={(e) => setValues({ ...values, optional: !e.target.checked })} />
          {t("signatures.fields.required")}
        </label>
      )}
      <div className={styles.actions}>
        <Button type="submit" size="small">
          {t("signatures.fields.apply")}
        </Button>
        <Button size="small" variant="danger" onClick={onRemove}>
          {t("signatures.fields.remove")}
        </Button>
      </div>
    </form>
  );
}

function FieldIcon({ type }: { type: FieldType }) {
  const paths: Record<FieldType, string> = {
    signature: "M3 17c3-4 5-9 7-9s-1 9 1 9 3-5 5-5 1 4 3 4h2M3 21h18",
    checkbox: "M4 4h16v16H4zM8 12l3 3 5-6",
    text: "M5 6h14M12 6v13M9 19h6",
  };
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d={paths[type]} />
    </svg>
  );
}
