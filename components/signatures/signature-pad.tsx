"use client";

import "@fontsource/dancing-script/400.css";
import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormStatus } from "@/components/ui/form-status";
import { TextField } from "@/components/ui/text-field";
import { MAX_TYPED_SIGNATURE } from "@/lib/contracts/signatures";
import { useT } from "@/lib/i18n/provider";
import type { SignatureCapture } from "@/lib/queries/signatures";
import styles from "./signatures.module.css";

/** The drawing area in CSS pixels; the canvas holds twice as many for sharp strokes. */
const PAD_WIDTH = 480;
const PAD_HEIGHT = 160;
const DENSITY = 2;

/**
 * The signer's signature: drawn with the pointer on a canvas (mouse, finger or pen, with the
 * pen's pressure), or typed (the keyboard's way), shown in the script the seal stamps it with.
 */
export function SignaturePadDialog({ initial, defaultName, onDone, onClose }: { initial: SignatureCapture | null; defaultName: string; onDone: (capture: SignatureCapture) => void; onClose: () => void }) {
  const t = useT();
  const [mode, setMode] = useState<"drawn" | "typed">(initial?.type ?? "drawn");
  const [typed, setTyped] = useState(initial?.type === "typed" ? initial.text : defaultName);
  const [hasInk, setHasInk] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const last = useRef<{ x: number; y: number } | null>(null);

  useEffect(() => {
    const context = canvas.current?.getContext("2d");
    if (!context) return;
    context.lineCap = "round";
    context.lineJoin = "round";
    context.strokeStyle = "#14213d";
    if (initial?.type === "drawn") {
      const image = new Image();
      image.onload = () => {
        context.drawImage(image, 0, 0, PAD_WIDTH * DENSITY, PAD_HEIGHT * DENSITY);
        setHasInk(true);
      };
      image.src = initial.image;
    }
  }, [mode, initial]);

  function point(event: PointerEvent | ReactPointerEvent<HTMLCanvasElement>) {
    const rect = canvas.current!.getBoundingClientRect();
    return { x: ((event.clientX - rect.left) / rect.width) * PAD_WIDTH * DENSITY, y: ((event.clientY - rect.top) / rect.height) * PAD_HEIGHT * DENSITY };
  }

  function stroke(from: { x: number; y: number }, to: { x: number; y: number }, pressure: number) {
    const context = canvas.current?.getContext("2d");
    if (!context) return;
    // A pen reports its pressure; a mouse or a finger reports 0.5 while pressed.
    context.lineWidth = DENSITY * (1.4 + 2.2 * (pressure || 0.5));
    context.beginPath();
    context.moveTo(from.x, from.y);
    context.lineTo(to.x, to.y);
    context.stroke();
  }

  function down(event: ReactPointerEvent<HTMLCanvasElement>) {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    const at = point(event);
    last.current = at;
    // A tap is a dot.
    stroke(at, { x: at.x + 0.1, y: at.y + 0.1 }, event.pressure);
    setHasInk(true);
  }

  function move(event: ReactPointerEvent<HTMLCanvasElement>) {
    if (!last.current) return;
    // Coalesced events keep fast strokes smooth: the browser groups the points between frames.
    const events = event.nativeEvent.getCoalescedEvents?.() ?? [];
    for (const e of events.length > 0 ? events : [event.nativeEvent]) {
      const at = point(e);
      stroke(last.current, at, e.pressure);
      last.current = at;
    }
  }

  function up() {
    last.current = null;
  }

  function clear() {
    const context = canvas.current?.getContext("2d");
    context?.clearRect(0, 0, PAD_WIDTH * DENSITY, PAD_HEIGHT * DENSITY);
    setHasInk(false);
  }

  function submit() {
    if (mode === "drawn") {
      if (!hasInk || !canvas.current) return setError(t("sign.pad.empty"));
      onDone({ type: "drawn", image: canvas.current.toDataURL("image/png") });
    } else {
      const text = typed.trim();
      if (!text) return setError(t("sign.pad.typedEmpty"));
      onDone({ type: "typed", text });
    }
  }

  return (
    <Dialog
      title={t("sign.pad.title")}
      sheet
      closeLabel={t("common.close")}
      onClose={onClose}
      onSubmit={submit}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" data-testid="signature-adopt">
            {t("sign.pad.adopt")}
          </Button>
        </>
      }
    >
      <div className={styles.pad}>
        <div className={styles.tabs} role="group" aria-label={t("sign.pad.how")}>
          <button type="button" className={styles.tab} aria-pressed={mode === "drawn"} onClick={() => setMode("drawn")} data-autofocus={mode === "drawn" ? true : undefined}>
            {t("sign.pad.draw")}
          </button>
          <button type="button" className={styles.tab} aria-pressed={mode === "typed"} onClick={() => setMode("typed")}>
            {t("sign.pad.type")}
          </button>
        </div>
        {mode === "drawn" ? (
          <>
            <p className={styles.hint} id="pad-hint">
              {t("sign.pad.drawHint")}
            </p>
            <canvas
              ref={canvas}
              className={styles.padCanvas}
              width={PAD_WIDTH * DENSITY}
              height={PAD_HEIGHT * DENSITY}
              role="img"
              aria-label={t("sign.pad.canvas")}
              aria-describedby="pad-hint"
              data-testid="signature-canvas"
              onPointerDown={down}
              onPointerMove={move}
              onPointerUp={up}
              onPointerCancel={up}
              onLostPointerCapture={up}
            />
            <div className={styles.actions}>
              <Button size="small" variant="ghost" onClick={clear} disabled={!hasInk}>
                {t("sign.pad.clear")}
              </Button>
            </div>
          </>
        ) : (
          <>
            <TextField label={t("sign.pad.typedLabel")} value={typed} maxLength={MAX_TYPED_SIGNATURE} onChange={(e) => setTyped(e.target.value)} autoComplete="name" />
            <p className={styles.typedPreview} aria-hidden="true">
              {typed.trim() || "\u00a0"}
            </p>
          </>
        )}
        <FormStatus status={error ? { tone: "error", message: error } : null} />
      </div>
    </Dialog>
  );
}

/** A captured signature, as it will be stamped: the drawing, or the name in script. */
export function SignaturePreview({ capture, className }: { capture: SignatureCapture; className?: string }) {
  const t = useT();
  if (capture.type === "drawn")
    // A data URL drawn in this page: nothing for the optimiser to do.
    // eslint-disable-next-line @next/next/no-img-element
    return <img className={className} src={capture.image} alt={t("sign.pad.yourSignature")} />;
  return <span className={`${styles.typedSignature} ${className ?? ""}`}>{capture.text}</span>;
}
