"use client";

import { useId, useRef, useState, type KeyboardEvent } from "react";
import { useT } from "@/lib/i18n/provider";
import type { MessageKey } from "@/lib/i18n/translate";
import type { Item } from "@/lib/queries/files";
import { ActivityTab } from "./activity-tab";
import { CommentsTab } from "./comments-tab";
import styles from "./details.module.css";
import { FollowToggle } from "./follow-toggle";
import { LockToggle } from "./lock-toggle";
import { RightsTab } from "./rights-tab";
import { FileTextStatus } from "./text-status";
import { FileWorkflowStatus } from "@/components/workflows/file-workflow-status";
import { TagEditor } from "@/components/tags/tag-editor";
import { VersionsTab } from "./versions-tab";

type Tab = "versions" | "comments" | "rights" | "activity";

const TAB_LABELS: Record<Tab, MessageKey> = {
  versions: "details.versions",
  comments: "details.comments",
  rights: "details.rights",
  activity: "details.activity",
};

/**
 * The side panel for one file or folder: its versions (files), comments with replies, the rights
 * of a folder, its activity, and the lock (files) or follow (folders) switch. Tabs follow the
 * WAI-ARIA pattern: arrows move between them, Tab enters the panel.
 */
export function DetailsPanel({ item, unread = 0, onClose }: { item: Item; unread?: number; onClose: () => void }) {
  const t = useT();
  const tabs: Tab[] = item.kind === "file" ? ["versions", "comments", "activity"] : ["comments", ...(item.can_share ? (["rights"] as const) : []), "activity"];
  const [chosen, setChosen] = useState<Tab>(tabs[0]);
  const tab = tabs.includes(chosen) ? chosen : tabs[0];
  const baseId = useId();
  const tabRefs = useRef(new Map<Tab, HTMLButtonElement>());

  function onTabKey(event: KeyboardEvent) {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = tabs[(tabs.indexOf(tab) + step + tabs.length) % tabs.length];
    setChosen(next);
    tabRefs.current.get(next)?.focus();
  }

  const target = { type: item.kind, id: item.id } as const;
  return (
    <aside className={styles.panel} aria-label={t("details.title", { name: item.name })} data-testid="details-panel">
      <div className={styles.head}>
        <h2 className={styles.name} title={item.name}>
          {item.name}
        </h2>
        <button type="button" className={styles.close} onClick={onClose} aria-label={t("details.close")}>
          ×
        </button>
      </div>
      <div className={styles.switches}>{item.kind === "file" ? <LockToggle file={item} /> : <FollowToggle folderId={item.id} />}</div>
      {item.kind === "file" && <FileWorkflowStatus versionId={item.id} />}
      {item.kind === "file" && <FileTextStatus file={item} />}
      <TagEditor target={target} canEdit={item.can_edit} />
      <div role="tablist" aria-label={t("details.sections")} className={styles.tabs} onKeyDown={onTabKey}>
        {tabs.map((name) => (
          <button
            key={name}
            ref={(node) => {
              if (node) tabRefs.current.set(name, node);
            }}
            type="button"
            role="tab"
            id={`${baseId}-${name}`}
            aria-selected={tab === name}
            aria-controls={`${baseId}-${name}-panel`}
            tabIndex={tab === name ? 0 : -1}
            className={styles.tab}
            onClick={() => setChosen(name)}
          >
            {t(TAB_LABELS[name])}
            {name === "comments" && unread > 0 && <span className={styles.unreadDot}> {unread}</span>}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${baseId}-${tab}-panel`} aria-labelledby={`${baseId}-${tab}`} className={styles.body} tabIndex={0}>
        {tab === "versions" && item.kind === "file" && <VersionsTab file={item} />}
        {tab === "comments" && <CommentsTab target={target} unread={unread} />}
        {tab === "rights" && item.kind === "folder" && <RightsTab folder={item} />}
        {tab === "activity" && <ActivityTab target={target} />}
      </div>
    </aside>
  );
}
