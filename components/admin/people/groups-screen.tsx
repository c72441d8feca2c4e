"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo, useState } from "react";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import { useT } from "@/lib/i18n/provider";
import { useAccount } from "@/lib/queries/account";
import { groupsQuery, useDeleteGroup, type AdminGroup } from "@/lib/queries/admin-people";
import { GroupDialog } from "./group-dialog";
import styles from "./people.module.css";
import { Pager } from "../pager";
import { compareBy, ConfirmDialog, KeywordField, ListStatus, nextSort, SortHeader, useDebounced, type SortState } from "./shared";

const LIMIT = 50;
type Column = "name" | "members";
type Open = { type: "create" } | { type: "edit" | "delete"; group: AdminGroup } | null;

/** /admin/groups: groups with their members and managers. Managers see and edit the members of the groups they manage. */
export function GroupsScreen({ initialKeyword = "" }: { initialKeyword?: string }) {
  const t = useT();
  const toast = useToast();
  const { data: me } = useAccount();
  const isManager = me?.role === 4;
  const [keyword, setKeyword] = useState(initialKeyword);
  const [offset, setOffset] = useState(0);
  const [sort, setSort] = useState<SortState<Column>>({ column: "name", direction: 1 });
  const [open, setOpen] = useState<Open>(null);
  const search = useDebounced(keyword.trim());
  const groups = useQuery(groupsQuery({ keyword: search, offset, limit: LIMIT }));
  const remove = useDeleteGroup();
  const managed = new Set(me?.manager_of.map((g) => g.id) ?? []);

  const rows = useMemo(
    () => [...(groups.data?.objects ?? [])].sort(compareBy<AdminGroup>(sort.column === "name" ? (g) => g.login : (g) => g.nb_members, sort.direction)),
    [groups.data, sort],
  );
  const total = groups.data?.nb_total_objects ?? 0;

  return (
    <div className={styles.screen}>
      <div className={styles.top}>
        <PageHeader title={t("adminPeople.groups.title")} subtitle={t(isManager ? "adminPeople.groups.subtitleManager" : "adminPeople.groups.subtitle")} />
        {!isManager && <Button onClick={() => setOpen({ type: "create" })}>{t("adminPeople.groups.new")}</Button>}
      </div>
      <div className={styles.toolbar} role="search">
        <KeywordField
          value={keyword}
          onChange={(value) => {
            setKeyword(value);
            setOffset(0);
          }}
        />
      </div>
      <ListStatus query={groups} isEmpty={total === 0} emptyText={t("adminPeople.groups.none")} />
      {rows.length > 0 && (
        <div className={styles.tableWrap}>
          <table className={styles.table} aria-label={t("adminPeople.groups.title")}>
            <thead>
              <tr>
                <SortHeader column="name" sort={sort} onSort={(c) => setSort(nextSort(sort, c))}>
                  {t("adminPeople.groups.name")}
                </SortHeader>
                <SortHeader column="members" sort={sort} onSort={(c) => setSort(nextSort(sort, c))}>
                  {t("adminPeople.groups.members")}
                </SortHeader>
                <th scope="col">
                  <span className="visually-hidden">{t("adminPeople.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((g) => {
                const mayEdit = !isManager || managed.has(g.id);
                return (
                  <tr key={g.id}>
                    <td>
                      <span className={styles.strong}>{g.login}</span> {g.ldap && <span className={styles.badge}>{t("adminPeople.groups.directoryBadge")}</span>}
                    </td>
                    <td>{g.nb_members}</td>
                    <td>
                      <div className={styles.actions}>
                        {mayEdit && (
                          <Button size="small" variant="secondary" aria-label={t("adminPeople.groups.editName", { name: g.login })} onClick={() => setOpen({ type: "edit", group: g })}>
                            {t("adminPeople.edit")}
                          </Button>
                        )}
                        {mayEdit && (
                          <Link className={styles.linkAction} href={`/admin/options?target=${g.id}`} aria-label={t("adminPeople.groups.optionsName", { name: g.login })}>
                            {t("adminPeople.users.options")}
                          </Link>
                        )}
                        {!isManager && (
                          <Button size="small" variant="ghost" aria-label={t("adminPeople.groups.deleteName", { name: g.login })} onClick={() => setOpen({ type: "delete", group: g })}>
                            {t("adminPeople.delete")}
                          </Button>
                        )}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pager offset={offset} total={total} limit={LIMIT} onChange={setOffset} label={t("adminPeople.groups.paging")} />

      {(open?.type === "create" || open?.type === "edit") && (
        <GroupDialog
          group={open.type === "edit" ? open.group : undefined}
          isManager={isManager}
          onClose={() => setOpen(null)}
          onDone={(saved) => {
            setOpen(null);
            toast({ tone: "info", message: t("adminPeople.groups.saved", { name: saved.login }) });
          }}
        />
      )}
      {open?.type === "delete" && (
        <ConfirmDialog
          title={t("adminPeople.groups.deleteTitle", { name: open.group.login })}
          text={t("adminPeople.groups.deleteText")}
          confirmLabel={t("adminPeople.delete")}
          onClose={() => setOpen(null)}
          onConfirm={async () => {
            await remove.mutateAsync(open.group.id);
            toast({ tone: "info", message: t("adminPeople.groups.deleted", { name: open.group.login }) });
          }}
        />
      )}
    </div>
  );
}
