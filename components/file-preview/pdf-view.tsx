"use client";

import { useEffect, useRef, useState } from "react";
import { useT } from "@/lib/i18n/provider";
import { loadPdfJs, type PdfDocument } from "@/lib/pdf/load-pdfjs";
import styles from "./preview.module.css";


/**
 * A PDF page by page with pdf.js: pages, zoom, and a text layer so text can be selected and
 * copied. The document is fetched with Range requests, so a long PDF starts showing at once.
 */
export function PdfView({ url, name }: { url: string; name: string }) {
  const t = useT();
  const [doc, setDoc] = useState<PdfDocument | null>(null);
  const [failed, setFailed] = useState(false);
  const [page, setPage] = useState(1);
  const [zoom, setZoom] = useState(1);

  useEffect(() => {
    let cancelled = false;
    let loaded: PdfDocument | null = null;
    loadPdfJs()
      .then((module) => module.getDocument({ url, withCredentials: true }).promise)
      .then((document) => {
        loaded = document;
        if (cancelled) void document.destroy();
        else setDoc(document);
      })
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
      void loaded?.destroy();
    };
  }, [url]);

  if (failed) return <p role="alert">{t("preview.failed")}</p>;
  if (!doc) return <p className={styles.muted}>{t("common.loading")}</p>;
  const pages = doc.numPages;
  return (
    <div className={styles.pdf}>
      <div className={styles.pdfBar} role="toolbar" aria-label={t("preview.pdfTools")}>
        <button type="button" className={styles.tool} onClick={() => setPage((p) => Math.max(1, p - 1))} disabled={page <= 1} aria-label={t("preview.previousPage")}>
          ‹
        </button>
        <span data-testid="pdf-page">{t("preview.pageOf", { page, pages })}</span>
        <button type="button" className={styles.tool} onClick={() => setPage((p) => Math.min(pages, p + 1))} disabled={page >= pages} aria-label={t("preview.nextPage")}>
          ›
        </button>
        <button type="button" className={styles.tool} onClick={() => setZoom((z) => Math.max(0.5, z - 0.25))} aria-label={t("preview.zoomOut")}>
          −
        </button>
        <span>{Math.round(zoom * 100)} %</span>
        <button type="button" className={styles.tool} onClick={() => setZoom((z) => Math.min(3, z + 0.25))} aria-label={t("preview.zoomIn")}>
          +
        </button>
      </div>
      <PdfPage doc={doc} number={page} zoom={zoom} label={t("preview.pageLabel", { name, page })} />
    </div>
  );
}

function PdfPage({ doc, number, zoom, label }: { doc: PdfDocument; number: number; zoom: number; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const text = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let cancelled = false;
    let renderTask: { cancel: () => void } | null = null;
    void (async () => {
      const pdf = await loadPdfJs();
      const page = await doc.getPage(number);
      if (cancelled || !canvas.current || !text.current) return;
      const viewport = page.getViewport({ scale: zoom * 1.4 });
      const ratio = window.devicePixelRatio || 1;
      canvas.current.width = Math.floor(viewport.width * ratio);
      canvas.current.height = Math.floor(viewport.height * ratio);
      canvas.current.style.width = `${viewport.width}px`;
      canvas.current.style.height = `${viewport.height}px`;
      const task = page.render({ canvas: canvas.current, viewport, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] });
      renderTask = task;
      text.current.replaceChildren();
      text.current.style.setProperty("--scale-factor", String(viewport.scale));
      text.current.style.setProperty("--total-scale-factor", String(viewport.scale));
      await Promise.all([task.promise, new pdf.TextLayer({ textContentSource: page.streamTextContent(), container: text.current, viewport }).render()]);
    })().catch(() => {});
    return () => {
      cancelled = true;
      renderTask?.cancel();
    };
  }, [doc, number, zoom]);
  return (
    <section className={styles.pdfPage} aria-label={label}>
      <canvas ref={canvas} />
      <div ref={text} className={styles.textLayer} data-testid="pdf-text" />
    </section>
  );
}
