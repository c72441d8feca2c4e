"use client";

import { useQuery } from "@tanstack/react-query";
import { useT } from "@/lib/i18n/provider";
import { starredHref } from "@/components/stars/starred-href";
import { starsQuery } from "@/lib/queries/stars";
import { SidebarSection } from "./sidebar-section";

/** How many starred items the sidebar lists; the Starred page has them all. */
const SHOWN = 8;

/** The sidebar's Starred section (issue 29): the caller's latest stars, a folder opening itself, a file its folder. */
export function SidebarStarred() {
  const t = useT();
  const stars = (useQuery(starsQuery()).data ?? []).slice(0, SHOWN);
  const entries = stars.map((star) => ({ key: `${star.type}:${star.id}`, href: starredHref(star), name: star.name, title: t("stars.open", { name: star.name }) }));
  return <SidebarSection id="sidebar-starred" title={t("stars.sidebar")} entries={entries} />;
}
