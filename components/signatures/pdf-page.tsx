"use client";

import { useEffect, useRef, useState, type ReactNode } from "react";
import { loadPdfJs, type PdfDocument } from "@/lib/pdf/load-pdfjs";
import styles from "./signatures.module.css";

/** The PDF at `url` (same origin: the session cookie or the token in the path is the credential). */
export function usePdfDocument(url: string | null): { doc: PdfDocument | null; failed: boolean } {
  const [state, setState] = useState<{ url: string | null; doc: PdfDocument | null; failed: boolean }>({ url: null, doc: null, failed: false });
  useEffect(() => {
    if (!url) return;
    let cancelled = false;
    let loaded: PdfDocument | null = null;
    loadPdfJs()
      .then((module) => module.getDocument({ url, withCredentials: true }).promise)
      .then((document) => {
        loaded = document;
        if (cancelled) void document.destroy();
        else setState({ url, doc: document, failed: false });
      })
      .catch(() => !cancelled && setState({ url, doc: null, failed: true }));
    return () => {
      cancelled = true;
      void loaded?.destroy();
    };
  }, [url]);
  // A document of an earlier url is never shown for a new one.
  return state.url === url ? { doc: state.doc, failed: state.failed } : { doc: null, failed: false };
}

type Props = {
  doc: PdfDocument | null;
  /** 1-based. */
  number: number;
  /** The page's size in PDF points (from the API), so the box has its size before pdf.js paints. */
  size: { width: number; height: number };
  /** CSS pixels per PDF point. */
  scale: number;
  label: string;
  /** Positioned over the page: fields. */
  children?: ReactNode;
  overlayRef?: (element: HTMLDivElement | null) => void;
  overlayTestId?: string;
};

/**
 * One page painted by pdf.js on a canvas, with an overlay of the same size on which fields are
 * placed (PDF points from the bottom-left, as api.md says, turned into CSS pixels from the top).
 */
export function PdfPage({ doc, number, size, scale, label, children, overlayRef, overlayTestId }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [paintedWidth, setPaintedWidth] = useState(0);
  const width = Math.round(size.width * scale);
  const height = Math.round(size.height * scale);

  useEffect(() => {
    if (!doc) return;
    let cancelled = false;
    let renderTask: { cancel: () => void } | null = null;
    void (async () => {
      const page = await doc.getPage(number);
      if (cancelled || !canvas.current) return;
      const natural = page.getViewport({ scale: 1 });
      const viewport = page.getViewport({ scale: width / natural.width });
      const ratio = window.devicePixelRatio || 1;
      canvas.current.width = Math.floor(viewport.width * ratio);
      canvas.current.height = Math.floor(viewport.height * ratio);
      const task = page.render({ canvas: canvas.current, viewport, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] });
      renderTask = task;
      await task.promise;
      if (!cancelled) setPaintedWidth(width);
    })().catch(() => {});
    return () => {
      cancelled = true;
      renderTask?.cancel();
    };
  }, [doc, number, width]);

  return (
    <section className={styles.page} aria-label={label} style={{ width, height }} data-page={number} data-painted={paintedWidth === width || undefined}>
      <canvas ref={canvas} className={styles.pageCanvas} style={{ width, height }} aria-hidden="true" />
      <div ref={overlayRef} className={styles.pageOverlay} data-testid={overlayTestId}>
        {children}
      </div>
    </section>
  );
}

/** A field's box on the page in CSS pixels (top-left origin) from its PDF rectangle (bottom-left origin). */
export function fieldBox(field: { x: number; y: number; width: number; height: number }, pageHeight: number, scale: number) {
  return {
    left: field.x * scale,
    top: (pageHeight - field.y - field.height) * scale,
    width: field.width * scale,
    height: field.height * scale,
  };
}

/** The width available to pages, followed as the window changes. */
export function useAvailableWidth<T extends HTMLElement>(): [(element: T | null) => void, number] {
  const [width, setWidth] = useState(0);
  const [element, setElement] = useState<T | null>(null);
  useEffect(() => {
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry.contentRect.width)));
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return [setElement, width];
}
