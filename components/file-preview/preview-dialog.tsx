"use client";

import { useEffect, useRef, useState } from "react";
import { useT } from "@/lib/i18n/provider";
import type { FileResponse } from "@/lib/queries/files";
import { PdfView } from "./pdf-view";
import styles from "./preview.module.css";
import { previewKind } from "./preview-kind";

/** How much of a text file the preview shows (fetched with a Range request). */
const TEXT_PREVIEW_BYTES = 256 * 1024;

type Props = {
  file: FileResponse;
  /** The files around this one, for the arrows; the preview moves through them. */
  files: FileResponse[];
  onMove: (file: FileResponse) => void;
  onClose: () => void;
};

/**
 * A file shown in the page: images, PDFs (pdf.js), video and audio (streamed with Range), and the
 * start of text files; anything else offers its download. ← and → move to the previous and next
 * file, Escape closes.
 */
export function PreviewDialog({ file, files, onMove, onClose }: Props) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const index = files.findIndex((f) => f.id === file.id);
  const previous = index > 0 ? files[index - 1] : null;
  const next = index >= 0 && index < files.length - 1 ? files[index + 1] : null;
  const url = `/api/file/${file.id}/download`;

  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement as HTMLElement | null;
    dialog?.showModal();
    return () => {
      dialog?.close();
      opener?.focus?.();
    };
  }, []);

  // ← and → wherever focus is in the dialog, or lost from it: a button that turns disabled under
  // the pointer (a PDF's "next page" on its last page) drops focus to the page's body.
  const move = useRef({ previous, next, onMove });
  useEffect(() => {
    move.current = { previous, next, onMove };
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement;
      if (e.defaultPrevented || target.closest("input, textarea, select, video, audio")) return;
      if (target !== document.body && !ref.current?.contains(target)) return;
      const { previous: before, next: after, onMove: go } = move.current;
      if (e.key === "ArrowLeft" && before) go(before);
      else if (e.key === "ArrowRight" && after) go(after);
      else return;
      e.preventDefault();
      ref.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  return (
    <dialog
      ref={ref}
      className={styles.dialog}
      aria-label={t("preview.title", { name: file.name })}
      data-testid="preview"
      tabIndex={-1}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <header className={styles.bar}>
        <h2 className={styles.name}>{file.name}</h2>
        <span className={styles.position}>{index >= 0 ? t("preview.position", { index: index + 1, count: files.length }) : ""}</span>
        {file.can_download && (
          <a className={styles.download} href={`${url}?latest=1`} download>
            {t("files.download")}
          </a>
        )}
        <button type="button" className={styles.tool} onClick={onClose} aria-label={t("common.close")} data-autofocus>
          ×
        </button>
      </header>
      <div className={styles.stage}>
        <button type="button" className={styles.arrow} onClick={() => previous && onMove(previous)} disabled={!previous} aria-label={t("preview.previous")}>
          ‹
        </button>
        <div className={styles.content} key={file.id}>
          <PreviewBody file={file} url={url} renditionUrl={file.can_download ? `/api/file/${file.id}/rendition` : undefined} pageUrl={`/api/preview/${file.id}`} />
        </div>
        <button type="button" className={styles.arrow} onClick={() => next && onMove(next)} disabled={!next} aria-label={t("preview.next")}>
          ›
        </button>
      </div>
    </dialog>
  );
}

/**
 * What the browser can show of a file at `url` (which must answer Range requests): an image, a PDF
 * with pdf.js, a player for video and audio, the start of a text; else a plain word that it
 * cannot be shown. Also used by the public share page. Office documents are shown through the
 * PDF the server made of them (`renditionUrl`), or its preview page of rendered pages (`pageUrl`,
 * for readers without the download right); a video the browser cannot play switches to the
 * server's web-playable copy.
 */
export function PreviewBody({ file, url, renditionUrl, pageUrl }: { file: { name: string; mime?: string }; url: string; renditionUrl?: string; pageUrl?: string }) {
  const t = useT();
  const kind = previewKind(file);
  const [videoSrc, setVideoSrc] = useState(url);
  // A video at its natural size, never larger; CSS caps it to the stage (the viewport) keeping its shape.
  const [natural, setNatural] = useState<{ width: number; height: number } | null>(null);
  return (
    <>
      {/* A user file of any size and origin: next/image would re-encode it on the server. */}
      {/* eslint-disable-next-line @next/next/no-img-element */}
      {kind === "image" && <img className={styles.image} src={url} alt={file.name} />}
      {kind === "pdf" && <PdfView url={url} name={file.name} />}
      {kind === "office" && renditionUrl && <PdfView url={renditionUrl} name={file.name} />}
      {kind === "office" && !renditionUrl && pageUrl && <iframe className={styles.frame} src={pageUrl} title={file.name} sandbox="allow-same-origin" />}
      {kind === "office" && !renditionUrl && !pageUrl && <p className={styles.none}>{t("preview.unavailable")}</p>}
      {kind === "video" && (
        <video
          className={styles.media}
          src={videoSrc}
          controls
          preload="metadata"
          aria-label={file.name}
          style={natural ? { width: natural.width, aspectRatio: `${natural.width} / ${natural.height}` } : undefined}
          onLoadedMetadata={(e) => e.currentTarget.videoWidth > 0 && setNatural({ width: e.currentTarget.videoWidth, height: e.currentTarget.videoHeight })}
          onError={() => renditionUrl && videoSrc !== renditionUrl && setVideoSrc(renditionUrl)}
          data-testid="video-preview"
        />
      )}
      {kind === "audio" && <audio src={url} controls preload="metadata" aria-label={file.name} />}
      {kind === "text" && <TextView url={url} />}
      {kind === "none" && <p className={styles.none}>{t("preview.unavailable")}</p>}
    </>
  );
}

function TextView({ url }: { url: string }) {
  const t = useT();
  const [text, setText] = useState<{ body: string; cut: boolean } | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    fetch(url, { headers: { Range: `bytes=0-${TEXT_PREVIEW_BYTES - 1}` }, credentials: "same-origin", signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        const total = Number(response.headers.get("Content-Range")?.split("/")[1] ?? 0);
        const body = new TextDecoder("utf-8", { fatal: false }).decode(await response.arrayBuffer());
        setText({ body, cut: total > TEXT_PREVIEW_BYTES });
      })
      .catch((e) => e.name !== "AbortError" && setFailed(true));
    return () => controller.abort();
  }, [url]);
  if (failed) return <p role="alert">{t("preview.failed")}</p>;
  if (!text) return <p className={styles.muted}>{t("common.loading")}</p>;
  return (
    <div className={styles.textWrap}>
      <pre className={styles.text} tabIndex={0} data-testid="text-preview">
        {text.body}
      </pre>
      {text.cut && <p className={styles.muted}>{t("preview.truncated")}</p>}
    </div>
  );
}
