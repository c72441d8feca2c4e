"use client";

import { useEffect, useRef, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from "react";
import { useMoveCachedField, useUpdateField, type SignatureFieldResponse } from "@/lib/queries/signatures";

/** Arrow keys move a field by 1 point, with Shift by 10; the move is saved once the keys rest. */
const SAVE_DELAY = 400;

export const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), Math.max(min, max));
export const round = (value: number) => Math.round(value * 10) / 10;

/**
 * Moving placed fields: dragged with a pointer (the cache moves at once, one PUT on release) or
 * nudged with arrow keys (one PUT once the keys rest); Delete removes the field.
 */
export function useFieldMoves({
  requestId,
  scale,
  size,
  onSelect,
  onRemove,
  onError,
}: {
  requestId: number;
  scale: number;
  size: { width: number; height: number };
  onSelect: (id: number) => void;
  onRemove: (field: SignatureFieldResponse) => void;
  onError: (error: unknown) => void;
}) {
  const updateField = useUpdateField(requestId);
  const moveCached = useMoveCachedField(requestId);
  const fail = onError;
  const remove = onRemove;
  const setSelectedId = onSelect;
  const fieldDrag = useRef<{ id: number; startX: number; startY: number; fieldX: number; fieldY: number; moved: boolean } | null>(null);
  const nudge = useRef<{ id: number; x: number; y: number; timer: ReturnType<typeof setTimeout> } | null>(null);

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

  return { onFieldPointerDown, onFieldPointerMove, onFieldPointerUp, onFieldKey, dropNudge, cancelDrag: () => (fieldDrag.current = null) };
}
