"use client";

import { useQuery } from "@tanstack/react-query";
import { useT } from "@/lib/i18n/provider";
import { activityQuery } from "@/lib/queries/files";
import { SidebarSection } from "./sidebar-section";

/** How many of the latest files the sidebar lists; the Recent page has them all. */
const SHOWN = 5;

/**
 * The sidebar's Recent section: the caller's last few files (GET /api/file/activity, the cache the
 * Recent page shares), each opening its folder. Nothing shows until there is a file to list.
 */
export function SidebarRecent() {
  const t = useT();
  const files = (useQuery(activityQuery()).data ?? []).slice(0, SHOWN);
  const entries = files.map((file) => ({ key: String(file.id), href: `/files/${file.parent_id}`, name: file.name, title: t("recent.openIn", { name: file.name }) }));
  return <SidebarSection id="sidebar-recent" title={t("recent.sidebar")} entries={entries} />;
}
