"use client";

import { useState } from "react";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { htmlLang } from "@/lib/i18n/languages";
import { cancelUpload, clearFinishedUploads, pauseUpload, resumeUpload, retryUpload, useUploads, type UploadItem } from "@/lib/queries/uploads";
import styles from "./upload-panel.module.css";
import { formatBytes, formatDuration } from "./format";

/** One line per file: progress, speed, time left, and what can be done with it. */
export function UploadPanel() {
  const t = useT();
  const uploads = useUploads();
  const [isOpen, setOpen] = useState(true);
  if (uploads.length === 0) return null;
  const done = uploads.filter((u) => u.status === "done").length;
  return (
    <section className={styles.panel} aria-labelledby="upload-panel-title">
      <div className={styles.head}>
        <h2 id="upload-panel-title" className={styles.title}>
          {t("uploads.title")} <span className={styles.summary}>{t("uploads.summary", { done, total: uploads.length })}</span>
        </h2>
        <div className={styles.headActions}>
          {done > 0 && (
            <button type="button" className={styles.textButton} onClick={clearFinishedUploads}>
              {t("uploads.clear")}
            </button>
          )}
          <button type="button" className={styles.textButton} aria-expanded={isOpen} onClick={() => setOpen((o) => !o)}>
            {isOpen ? t("uploads.hide") : t("uploads.show")}
          </button>
        </div>
      </div>
      {isOpen && (
        <ul className={styles.list}>
          {uploads.map((upload) => (
            <UploadRow key={upload.id} upload={upload} />
          ))}
        </ul>
      )}
    </section>
  );
}

function UploadRow({ upload }: { upload: UploadItem }) {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const percent = upload.size === 0 ? (upload.status === "done" ? 100 : 0) : Math.floor((upload.sent / upload.size) * 100);
  const left = upload.speed > 0 ? (upload.size - upload.sent) / upload.speed : null;
  const label = upload.dir ? `${upload.dir}/${upload.name}` : upload.name;

  let state: string;
  if (upload.status === "queued") state = t("uploads.queued");
  else if (upload.status === "finishing") state = t("uploads.finishing");
  else if (upload.status === "done") state = t("uploads.done");
  else if (upload.status === "paused") state = `${t("uploads.paused")} · ${t("uploads.progressShort", { percent })}`;
  else if (upload.status === "error") state = t(`uploads.${upload.problem ?? "generic"}` as const);
  else if (left !== null) state = t("uploads.progress", { percent, speed: formatBytes(upload.speed, locale), left: formatDuration(left) });
  else state = t("uploads.progressShort", { percent });

  return (
    <li className={styles.row} data-status={upload.status}>
      <div className={styles.info}>
        <span className={styles.name} title={label}>
          {label}
        </span>
        <span className={styles.size}>{formatBytes(upload.size, locale)}</span>
      </div>
      <div
        className={styles.bar}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={state}
      >
        <span style={{ width: `${percent}%` }} />
      </div>
      <div className={styles.status}>
        <span className={upload.status === "error" ? styles.error : undefined}>{state}</span>
        {upload.isNewVersion && upload.status !== "error" && <span className={styles.note}>{t("uploads.newVersion")}</span>}
        {upload.isResumed && upload.status !== "done" && <span className={styles.note}>{t("uploads.resumed")}</span>}
      </div>
      <div className={styles.actions}>
        {upload.status === "uploading" && <IconButton label={t("uploads.pause", { name: upload.name })} icon="M8 5v14M16 5v14" onClick={() => pauseUpload(upload.id)} />}
        {upload.status === "paused" && <IconButton label={t("uploads.resume", { name: upload.name })} icon="M7 5l12 7-12 7z" onClick={() => resumeUpload(upload.id)} />}
        {upload.status === "error" && <IconButton label={t("uploads.retry", { name: upload.name })} icon="M4 12a8 8 0 1 0 2.3-5.6M4 4v4h4" onClick={() => retryUpload(upload.id)} />}
        {upload.status !== "done" && upload.status !== "finishing" && (
          <IconButton label={t("uploads.cancel", { name: upload.name })} icon="M6 6l12 12M18 6 6 18" onClick={() => cancelUpload(upload.id)} />
        )}
      </div>
    </li>
  );
}

function IconButton({ label, icon, onClick }: { label: string; icon: string; onClick: () => void }) {
  return (
    <button type="button" className={styles.iconButton} aria-label={label} title={label} onClick={onClick}>
      <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
        <path d={icon} />
      </svg>
    </button>
  );
}
