"use client";

import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from "react";
import { Button } from "@/components/ui/button";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { Select } from "@/components/ui/select";
import type { FieldType } from "@/lib/contracts/signatures";
import { useT } from "@/lib/i18n/provider";
import { documentUrl, useAddField, useCopyFieldToPages, useDeleteField, useUpdateField, type SignatureFieldResponse, type SignatureResponse } from "@/lib/queries/signatures";
import { signerColour } from "./builder-actors";
import { describeSignatureError } from "./describe-error";
import { FieldForm } from "./field-form";
import { DEFAULT_SIZE, FIELD_LABELS } from "./field-kinds";
import { FieldPalette } from "./field-palette";
import { fieldBox, PdfPage, useAvailableWidth, usePdfDocument } from "./pdf-page";
import styles from "./signatures.module.css";
import { clamp, round, useFieldMoves } from "./use-field-moves";

/** The widest a page is drawn, in CSS pixels. */
const MAX_PAGE_WIDTH = 760;

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

  const { doc: pdf, failed } = usePdfDocument(document ? documentUrl(document) : null);
  const [measure, available] = useAvailableWidth<HTMLDivElement>();
  const size = document?.pages[page - 1] ?? { width: 612, height: 792 };
  const scale = Math.min(available || 600, MAX_PAGE_WIDTH) / size.width;

  const addField = useAddField(request.id);
  const updateField = useUpdateField(request.id);
  const deleteField = useDeleteField(request.id);
  const copyField = useCopyFieldToPages(request.id);

  const allFields = documents.flatMap((d) => d.fields);
  const selected = allFields.find((f) => f.id === selectedId) ?? null;
  const fields = document ? document.fields.filter((f) => f.page === page) : [];
  const fail = (e: unknown) => setStatus({ tone: "error", message: describeSignatureError(e, t) });
  const moves = useFieldMoves({ requestId: request.id, scale, size, onSelect: setSelectedId, onRemove: remove, onError: fail });

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

  function remove(field: SignatureFieldResponse) {
    moves.dropNudge(field.id);
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
        <FieldPalette
          colour={signerId !== null ? signerColour(request, signerId) : undefined}
          disabled={signerId === null || addField.isPending}
          onDragStart={startPaletteDrag}
          onAdd={(type) => {
            if (!suppressClick.current) add(type);
          }}
        />
        {selected ? (
          <FieldForm
            key={`${selected.id}:${selected.page}:${selected.x}:${selected.y}:${selected.width}:${selected.height}:${selected.signer_id}`}
            field={selected}
            request={request}
            pages={request.documents.find((d) => d.id === selected.document_id)?.pages ?? []}
            onSave={(patch) => {
              moves.dropNudge(selected.id);
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
            copying={copyField.isPending}
            onCopy={() =>
              copyField.mutate(
                { field: selected, pages: request.documents.find((d) => d.id === selected.document_id)?.pages ?? [] },
                { onSuccess: (count) => setStatus({ tone: "success", message: t("signatures.fields.copied", { count }) }), onError: fail },
              )
            }
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
                  onPointerDown={(e) => moves.onFieldPointerDown(field, e)}
                  onPointerMove={(e) => moves.onFieldPointerMove(field, e)}
                  onPointerUp={() => moves.onFieldPointerUp(field)}
                  onPointerCancel={moves.cancelDrag}
                  onFocus={() => setSelectedId(field.id)}
                  onKeyDown={(e) => moves.onFieldKey(field, e)}
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

