"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { LocalTime } from "@/components/local-time";
import { Button } from "@/components/ui/button";
import { FormStatus } from "@/components/ui/form-status";
import { api, ApiError } from "@/lib/api-client";
import type { tokenResponse } from "@/lib/contracts/links";
import type { ShareContentJson } from "@/lib/contracts/shares";
import { useT } from "@/lib/i18n/provider";
import { awaitsVisitor, publicShareContentQuery, publicShareQuery, useRefreshPublicLink, withAccess } from "@/lib/queries/public-links";
import { formatBytes } from "../file-browser/format";
import { PreviewBody } from "../file-preview/preview-dialog";
import { PageViewer } from "./page-viewer";
import styles from "./public.module.css";
import { ShareThumb } from "./share-thumb";
import { closedLinkMessage, UnlockForm } from "./unlock-form";
import { VisitorGate } from "./visitor-gate";


/** PDFs and office documents (file_type "document") and images are read page by page, as the server renders them (issue 30). */
const PAGED_TYPES = new Set(["document", "image"]);

/** Flag 128: the link's one download is claimed by downloads only, so its previews are renditions. */
const SINGLE_DOWNLOAD = 128;

/**
 * The page a share link opens: the shared files and folders, navigable, each previewed in the
 * page or downloaded as the link allows, and everything at once as one zip.
 */
export function ShareScreen({ linkKey }: { linkKey: string }) {
  const t = useT();
  const refreshShare = useRefreshPublicLink("share", linkKey);
  const k = encodeURIComponent(linkKey);
  const share = useQuery(publicShareQuery(linkKey));
  const [trail, setTrail] = useState<{ id: number; name: string }[]>([]);
  const here = trail.at(-1);
  const content = useQuery(publicShareContentQuery(linkKey, here?.id ?? 0, Boolean(share.data?.unlocked && !awaitsVisitor(share.data))));
  const [previewing, setPreviewing] = useState<{ item: ShareContentJson; url: string; originals: boolean } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reading, setReading] = useState<ShareContentJson | null>(null);

  if (share.isPending) return <p className={styles.muted}>{t("common.loading")}</p>;
  if (share.isError || !share.data) return <FormStatus status={{ tone: "error", message: t(closedLinkMessage(share.error)) }} banner />;
  const data = share.data;

  async function fileToken(item: ShareContentJson, type: "preview" | "download") {
    const { token } = await api.post<typeof tokenResponse>(withAccess(`/api/token/share/${item.guid}/${type}/${k}`, "share", linkKey), {});
    return token;
  }

  async function download(item: ShareContentJson) {
    try {
      const token = await fileToken(item, "download");
      // A plain navigation to an attachment: the browser streams it to disk and the page stays.
      const anchor = document.createElement("a");
      anchor.href = `/api/file/download?token=${encodeURIComponent(token)}`;
      anchor.download = "";
      anchor.click();
    } catch (e) {
      setError(e instanceof ApiError ? t(closedLinkMessage(e)) : t("error.generic"));
    }
  }

  async function preview(item: ShareContentJson) {
    if (item.file_type && PAGED_TYPES.has(item.file_type)) {
      setPreviewing(null);
      setReading(item);
      return;
    }
    try {
      const token = await fileToken(item, "preview");
      // Originals may be shown: the file itself in the page's own viewers (pdf.js for PDFs). A
      // preview-only or single-download link: the server's preview page, made of renditions
      // (never the original bytes).
      const originals = data.can_download && !(data.flags & SINGLE_DOWNLOAD);
      const path = originals ? `/api/preview/${item.id}/content` : `/api/preview/${item.id}`;
      setPreviewing({ item, url: `${path}?token=${encodeURIComponent(token)}`, originals });
    } catch (e) {
      setError(e instanceof ApiError ? t(closedLinkMessage(e)) : t("error.generic"));
    }
  }

  return (
    <div className={styles.stack}>
      <h1 className={styles.title}>{data.name || t("share.public.title")}</h1>
      <p className={styles.muted}>
        {t("share.public.intro", { owner: data.owner })}
        {data.expiration_date && (
          <>
            {" "}
            {t("public.until")} <LocalTime iso={data.expiration_date} />
          </>
        )}
      </p>
      {!data.unlocked ? (
        <UnlockForm kind="share" linkKey={linkKey} needsPassword={data.needs_password} needsCode={data.needs_code} onUnlocked={() => void refreshShare()} />
      ) : awaitsVisitor(data) ? (
        <VisitorGate linkKey={linkKey} gate={data.gate} onPassed={() => void refreshShare()} />
      ) : (
        <>
          <div className={styles.bar}>
            <nav aria-label={t("share.public.path")} className={styles.crumbs}>
              <button type="button" className={styles.crumb} onClick={() => setTrail([])} disabled={trail.length === 0}>
                {t("share.public.root")}
              </button>
              {trail.map((level, i) => (
                <span key={level.id}>
                  {" / "}
                  <button type="button" className={styles.crumb} onClick={() => setTrail(trail.slice(0, i + 1))} disabled={i === trail.length - 1}>
                    {level.name}
                  </button>
                </span>
              ))}
            </nav>
            {data.can_download && (
              <a className={styles.zip} href={withAccess(`/api/zip/share/${k}`, "share", linkKey)} download>
                {t("share.public.zip")}
              </a>
            )}
          </div>
          <FormStatus status={error ? { tone: "error", message: error } : null} />
          {content.isError && <FormStatus status={{ tone: "error", message: t(closedLinkMessage(content.error)) }} banner />}
          <ul className={styles.items} aria-label={t("share.public.items")}>
            {content.data?.objects.map((item) => (
              <li key={`${item.entity_type}:${item.id}`} className={styles.item} data-testid="shared-item">
                {item.is_file ? (
                  <span className={styles.itemName}>
                    <ShareThumb src={item.can_preview && item.file_type && item.file_type !== "video" ? withAccess(`/api/mixer/${item.id}?key=${k}`, "share", linkKey) : null} />
                    <span className={styles.itemLabel}>{item.name}</span>
                  </span>
                ) : (
                  <button type="button" className={styles.folderButton} onClick={() => setTrail([...trail, { id: item.id, name: item.name }])}>
                    <span className={styles.thumbSlot} aria-hidden="true">
                      <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round">
                        <path d="M3 6h6l2 2h10v11H3z" />
                      </svg>
                    </span>
                    <span className={styles.itemLabel}>{item.name}</span>
                  </button>
                )}
                <span className={styles.muted}>{item.is_file ? formatBytes(item.size) : ""}</span>
                {item.is_file && item.can_preview && (
                  <Button size="small" variant="secondary" onClick={() => preview(item)} aria-label={t("share.public.previewName", { name: item.name })}>
                    {t("files.preview")}
                  </Button>
                )}
                {item.is_file && item.can_download && (
                  <Button size="small" variant="ghost" onClick={() => download(item)} aria-label={t("share.public.downloadName", { name: item.name })}>
                    {t("files.download")}
                  </Button>
                )}
              </li>
            ))}
          </ul>
          {content.data?.objects.length === 0 && <p className={styles.muted}>{t("share.public.empty")}</p>}
        </>
      )}
      {reading && <PageViewer linkKey={linkKey} file={reading} onClose={() => setReading(null)} />}
      {previewing && (
        <section className={styles.preview} aria-label={t("preview.title", { name: previewing.item.name })}>
          <div className={styles.bar}>
            <strong>{previewing.item.name}</strong>
            <Button size="small" variant="ghost" onClick={() => setPreviewing(null)}>
              {t("common.close")}
            </Button>
          </div>
          {previewing.originals ? (
            <div className={styles.viewer} data-testid="share-preview">
              <PreviewBody key={previewing.url} file={previewing.item} url={previewing.url} />
            </div>
          ) : (
            // The preview page runs no script and needs nothing the sandbox takes away.
            <iframe className={styles.frame} sandbox="" src={previewing.url} title={t("preview.title", { name: previewing.item.name })} data-testid="share-preview" />
          )}
        </section>
      )}
    </div>
  );
}
