"use client";

import { useState } from "react";
import styles from "./public.module.css";

/**
 * A shared file's thumbnail beside its name. A file icon holds the place; the server's thumbnail
 * replaces it only once it has loaded, so a file without one (not an image or a document, or
 * still being made, or failed: the mixer answers 404 or 423) never shows a broken image.
 */
export function ShareThumb({ src }: { src: string | null }) {
  const [state, setState] = useState<"loading" | "loaded" | "failed">("loading");
  return (
    <span className={styles.thumbSlot} aria-hidden="true">
      {state !== "loaded" && (
        <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round">
          <path d="M6 3h8l4 4v14H6z" />
          <path d="M14 3v4h4" />
        </svg>
      )}
      {src && state !== "failed" && (
        // eslint-disable-next-line @next/next/no-img-element -- a small thumbnail the server made
        <img className={state === "loaded" ? styles.thumb : styles.thumbPending} src={src} alt="" width={40} height={40} loading="lazy" onLoad={() => setState("loaded")} onError={() => setState("failed")} />
      )}
    </span>
  );
}
