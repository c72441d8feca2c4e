"use client";

import { useQuery } from "@tanstack/react-query";
import { LocalTime } from "@/components/local-time";
import { eventEnv } from "@/lib/event-env";
import { useT } from "@/lib/i18n/provider";
import type { MessageKey } from "@/lib/i18n/translate";
import { fileTimelineQuery, folderTimelineQuery, type Target, type TimelineEventResponse } from "@/lib/queries/details";
import styles from "./details.module.css";

// api.md's settled event types: files and folders number them differently.
const FILE_EVENTS: Record<number, MessageKey> = { 0: "details.event.version", 1: "details.event.comment", 2: "details.event.shared", 3: "details.event.download", 4: "details.event.preview", 6: "details.event.lock", 9: "details.event.downloads" };
const FOLDER_EVENTS: Record<number, MessageKey> = { 0: "details.event.created", 1: "details.event.comment", 4: "details.event.shared", 5: "details.event.dropped" };

type Row = { event: TimelineEventResponse; version?: number };

/** Who did what and when, newest first. */
export function ActivityTab({ target }: { target: Target }) {
  const t = useT();
  const file = useQuery({ ...fileTimelineQuery(target.id), enabled: target.type === "file" });
  const folder = useQuery({ ...folderTimelineQuery(target.id), enabled: target.type === "folder" });
  const query = target.type === "file" ? file : folder;
  if (query.isPending) return <p className={styles.muted}>{t("common.loading")}</p>;
  if (query.isError) return <p role="alert">{t("error.generic")}</p>;

  const rows: Row[] =
    target.type === "file"
      ? (file.data ?? []).flatMap((version, index, all) => version.events.map((event) => ({ event, version: all.length - index })))
      : (folder.data?.events ?? []).map((event) => ({ event }));
  rows.sort((a, b) => (b.event.date ?? "").localeCompare(a.event.date ?? ""));
  const labels = target.type === "file" ? FILE_EVENTS : FOLDER_EVENTS;
  if (rows.length === 0) return <p className={styles.muted}>{t("details.noActivity")}</p>;
  return (
    <ol className={styles.list} aria-label={t("details.activity")}>
      {rows.map(({ event, version }) => {
        const env = eventEnv(event.env);
        const count = event.type === 9 ? ((event.data as { users_count?: number } | undefined)?.users_count ?? event.extended?.length ?? 0) : 0;
        return (
          <li key={`${event.type}:${event.id}`} className={styles.event} data-testid="activity-row">
            <span>
              {t(labels[event.type] ?? "details.event.other", { count, version: version ?? "" })}
              {version !== undefined && event.type !== 0 && <span className={styles.muted}> · {t("details.versionNumber", { number: version })}</span>}
            </span>
            <span className={styles.muted}>
              {event.owner ?? t("details.someone")}
              {event.date !== null && (
                <>
                  {" · "}
                  <LocalTime iso={event.date} />
                </>
              )}
              {env.browser ? ` · ${env.browser}${env.os ? ` (${env.os})` : ""}` : ""}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
