"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type TouchEvent } from "react";
import { Button } from "@/components/ui/button";
import { FormStatus } from "@/components/ui/form-status";
import { ApiError } from "@/lib/api-client";
import type { ShareContentJson } from "@/lib/contracts/shares";
import { useT } from "@/lib/i18n/provider";
import type { Translate } from "@/lib/i18n/translate";
import { publicLinkKeys, publicShareQuery } from "@/lib/queries/public-links";
import { ensureShareVisitor, openShareVisit, sharePageImageSet, sharePageImageUrl, sharePagesQuery } from "@/lib/queries/share-viewer";
import { closedLinkMessage } from "./unlock-form";
import styles from "./page-viewer.module.css";
import { usePageClock } from "./use-page-clock";

/** Until a page's image has loaded, its place has the shape of an A4 page (width / height). */
const A4 = 210 / 297;
/** Images are mounted for the page on screen and this many on each side; the others are placeholders. */
const NEAR = 2;
/** A horizontal swipe this long (px) turns the page. */
const SWIPE_PX = 60;

/**
 * A shared PDF, office document (its PDF rendition) or image, page by page, as images the server
 * renders (issue 30): never the original bytes, so it works for preview-only links. The visible
 * time per page goes to the visit the viewer opens (use-page-clock.ts); the reader is told so.
 */
export function PageViewer({ linkKey, file, onClose }: { linkKey: string; file: ShareContentJson; onClose: () => void }) {
  const t = useT();
  const dialog = useRef<HTMLDialogElement>(null);
  const pane = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });
  const share = useQuery(publicShareQuery(linkKey));
  const identified = Boolean(share.data?.gate?.visitor);
  // One visit per opening of the viewer.
  const [opening] = useState(() => Date.now());
  const visit = useQuery({
    queryKey: [...publicLinkKeys.link("share", linkKey), "visit", file.id, opening] as const,
    queryFn: async () => {
      await ensureShareVisitor(linkKey, identified);
      return openShareVisit(linkKey, file.id);
    },
    enabled: share.isSuccess,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
  // Asked once the visitor is known, so that the pages carry its watermark.
  const pages = useQuery(sharePagesQuery(linkKey, file.id, !visit.isPending));
  const info = pages.data;
  const count = info?.ready ? info.pages : 0;
  const { page, error: clockError } = usePageClock(pane, count, visit.data ? { linkKey, visitId: visit.data } : null);
  const current = page ?? 1;
  const [ratios, setRatios] = useState<Record<number, number>>({});
  // Pages whose image failed, and how many times each was tried again (a new attempt mounts a new image).
  const [failed, setFailed] = useState<ReadonlySet<number>>(new Set());
  const [attempts, setAttempts] = useState<Record<number, number>>({});
  const [goTo, setGoTo] = useState("");
  const touch = useRef<{ x: number; y: number } | null>(null);
  const shape = Object.values(ratios)[0] ?? A4;

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const opener = document.activeElement as HTMLElement | null;
    element.showModal();
    return () => {
      element.close();
      opener?.focus?.();
    };
  }, []);

  // The keys turn pages at once: the pane takes the focus as soon as it shows pages.
  const shown = count > 0;
  useEffect(() => {
    if (shown) pane.current?.focus({ preventScroll: true });
  }, [shown]);

  function show(n: number) {
    if (count === 0) return;
    const target = Math.min(Math.max(1, n), count);
    pane.current?.querySelector(`[data-page="${target}"]`)?.scrollIntoView({ block: "start" });
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const moves: Record<string, number> = { ArrowDown: current + 1, PageDown: current + 1, ArrowUp: current - 1, PageUp: current - 1, Home: 1, End: count };
    if (!(event.key in moves) || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    show(moves[event.key]);
  }

  function onTouchEnd(event: TouchEvent<HTMLDivElement>) {
    const start = touch.current;
    const end = event.changedTouches[0];
    touch.current = null;
    if (!start || !end) return;
    const dx = end.clientX - start.x;
    const dy = end.clientY - start.y;
    // Vertical moves are the pane's own natural scrolling; a clear sideways swipe turns the page.
    if (Math.abs(dx) >= SWIPE_PX && Math.abs(dx) > 2 * Math.abs(dy)) show(dx < 0 ? current + 1 : current - 1);
  }

  function submitGoTo(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const n = Number(goTo);
    if (Number.isInteger(n) && n >= 1) {
      show(n);
      pane.current?.focus();
    }
  }

  const problem = share.error ?? visit.error ?? pages.error ?? clockError;

  return (
    <dialog
      ref={dialog}
      className={styles.viewer}
      aria-labelledby="page-viewer-title"
      data-testid="page-viewer"
      onCancel={(event) => {
        event.preventDefault();
        onCloseRef.current();
      }}
    >
      <header className={styles.toolbar}>
        <h2 id="page-viewer-title" className={styles.name}>
          {file.name}
        </h2>
        {count > 0 && (
          <div className={styles.nav}>
            <button type="button" className={styles.tool} onClick={() => show(current - 1)} disabled={current <= 1} aria-label={t("share.viewer.previous")}>
              <Chevron up />
            </button>
            <span className={styles.position} aria-live="polite" data-testid="page-indicator">
              {t("share.viewer.position", { page: current, count })}
            </span>
            <button type="button" className={styles.tool} onClick={() => show(current + 1)} disabled={current >= count} aria-label={t("share.viewer.next")}>
              <Chevron />
            </button>
            {count > 1 && (
              <form className={styles.goTo} onSubmit={submitGoTo}>
                <label className="visually-hidden" htmlFor="page-viewer-goto">
                  {t("share.viewer.goTo")}
                </label>
                <input id="page-viewer-goto" className={styles.goToInput} type="number" inputMode="numeric" min={1} max={count} value={goTo} onChange={(e) => setGoTo(e.target.value)} placeholder={String(current)} />
                <button type="submit" className={styles.goButton}>
                  {t("share.viewer.go")}
                </button>
              </form>
            )}
          </div>
        )}
        <button type="button" className={styles.tool} onClick={onClose} aria-label={t("common.close")}>
          <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
            <path d="M3 3l10 10M13 3 3 13" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
          </svg>
        </button>
      </header>
      <p className={styles.recorded}>{t("share.viewer.recorded")}</p>
      <FormStatus status={problem ? { tone: "error", message: describeViewerError(t, problem) } : null} />
      {info && !info.ready ? (
        <div className={styles.notice}>
          <p>{t("share.viewer.preparing")}</p>
          <Button size="small" variant="secondary" onClick={() => void pages.refetch()} disabled={pages.isFetching}>
            {t("share.viewer.retry")}
          </Button>
        </div>
      ) : count === 0 && !problem ? (
        <p className={styles.notice}>{t("common.loading")}</p>
      ) : null}
      <div
        ref={pane}
        className={styles.pane}
        tabIndex={0}
        role="region"
        aria-label={t("share.viewer.pages", { name: file.name })}
        aria-keyshortcuts="ArrowDown ArrowUp PageDown PageUp Home End"
        onKeyDown={onKeyDown}
        onTouchStart={(e) => (touch.current = { x: e.touches[0].clientX, y: e.touches[0].clientY })}
        onTouchEnd={onTouchEnd}
        data-testid="page-viewer-pane"
      >
        {Array.from({ length: count }, (_, i) => i + 1).map((n) => (
          <div key={n} className={styles.page} data-page={n} style={{ aspectRatio: ratios[n] ?? shape }}>
            {failed.has(n) ? (
              <div className={styles.pageFailed}>
                <p>{t("share.viewer.pageFailed")}</p>
                <Button
                  size="small"
                  variant="secondary"
                  onClick={() => {
                    setFailed((known) => new Set([...known].filter((p) => p !== n)));
                    setAttempts((known) => ({ ...known, [n]: (known[n] ?? 0) + 1 }));
                  }}
                >
                  {t("share.viewer.retry")}
                </Button>
              </div>
            ) : (
              Math.abs(n - current) <= NEAR && (
                // eslint-disable-next-line @next/next/no-img-element -- a page the server rendered, sized by the page's own shape
                <img
                  key={attempts[n] ?? 0}
                  className={styles.image}
                  src={sharePageImageUrl(linkKey, file.id, n)}
                  srcSet={sharePageImageSet(linkKey, file.id, n)}
                  sizes="(max-width: 960px) 100vw, 960px"
                  alt={t("share.viewer.position", { page: n, count })}
                  loading="lazy"
                  decoding="async"
                  draggable={false}
                  onLoad={(e) => {
                    const { naturalWidth: w, naturalHeight: h } = e.currentTarget;
                    if (w > 0 && h > 0) setRatios((known) => ({ ...known, [n]: w / h }));
                  }}
                  onError={() => setFailed((known) => new Set(known).add(n))}
                />
              )
            )}
          </div>
        ))}
      </div>
    </dialog>
  );
}

function Chevron({ up = false }: { up?: boolean }) {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
      <path d={up ? "M3 10l5-5 5 5" : "M3 6l5 5 5-5"} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** The server's refusals, in the reader's words. */
function describeViewerError(t: Translate, error: unknown): string {
  if (!(error instanceof ApiError)) return t("error.generic");
  if (error.status === 0) return t("error.network");
  if (error.status === 401) return t("share.viewer.error.unauthorized");
  if (error.status === 403) return t("share.viewer.error.forbidden");
  if (error.status === 404) return t("share.viewer.error.notFound");
  if (error.status === 410) return t(closedLinkMessage(error));
  if (error.status === 429) return t("error.tooMany", { seconds: error.retryAfter ?? 60 });
  return t("error.generic");
}
