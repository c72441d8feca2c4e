"use client";

import Link from "next/link";
import { useT } from "@/lib/i18n/provider";
import type { FolderResponse } from "@/lib/queries/files";
import styles from "./file-browser.module.css";
import grid from "./file-grid.module.css";
import { useDropMove } from "./use-drag-move";

/** `id`: the folder behind the crumb, where rows may be dropped (use-drag-move.ts). */
export type Crumb = { label: string; href?: string; id?: number };

/**
 * The folder's place, from its `path` (ids) and `path_name` (names). The server leaves out the
 * ancestors the caller may not browse, so ids and names are paired only when they match up.
 */
export function crumbsOf(folder: FolderResponse | undefined, privateRootId: number | undefined, spaceLabel: string, t: ReturnType<typeof useT>): Crumb[] {
  if (!folder) return [{ label: spaceLabel }];
  if (folder.id === privateRootId) return [{ label: t("nav.myFiles") }];
  const ids = (folder.path ?? "").split("/").filter(Boolean).map(Number);
  const names = (folder.path_name ?? "").split("/").filter(Boolean);
  const ancestors: Crumb[] =
    ids.length === names.length
      ? ids.map((id, i) => (id === privateRootId ? { label: t("nav.myFiles"), href: "/files", id } : { label: names[i], href: `/files/${id}`, id }))
      : names.map((label) => ({ label }));
  return [...ancestors, { label: folder.name }];
}

export function Breadcrumbs({ crumbs }: { crumbs: Crumb[] }) {
  const t = useT();
  const dropProps = useDropMove();
  return (
    <nav aria-label={t("files.breadcrumbs")} className={`${styles.breadcrumbs} ${grid.withDrops}`}>
      <ol>
        {crumbs.map((crumb, i) => (
          <li key={`${i}-${crumb.label}`}>
            {crumb.href && i < crumbs.length - 1 ? (
              <Link href={crumb.href} {...(crumb.id ? dropProps({ id: crumb.id, name: crumb.label }) : {})}>
                {crumb.label}
              </Link>
            ) : (
              <span aria-current={i === crumbs.length - 1 ? "location" : undefined}>{crumb.label}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
