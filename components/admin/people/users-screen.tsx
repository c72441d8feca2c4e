"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { formatBytes, formatDay } from "@/components/file-browser/format";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/select";
import { useToast } from "@/components/ui/toast";
import { setActingAs } from "@/lib/api-client";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { displayName, useAccount } from "@/lib/queries/account";
import { groupsQuery, useDeleteUser, usersQuery, useUpdateUser, type AdminUser } from "@/lib/queries/admin-people";
import { useResetUserMfa, useSetMfaRequired } from "@/lib/queries/mfa";
import { PasswordDialog } from "./password-dialog";
import { RowMenu } from "./row-menu";
import styles from "./people.module.css";
import { Pager } from "../pager";
import { compareBy, ConfirmDialog, describePeopleError, KeywordField, ListStatus, nextSort, ROLE_KEYS, SortHeader, useDebounced, type SortState } from "./shared";
import { UserDialog } from "./user-dialog";

const LIMIT = 50;
type Column = "name" | "role" | "quota" | "expire" | "last_login";
type Open = { type: "create" } | { type: "edit" | "password" | "delete" | "deactivate" | "resetMfa"; user: AdminUser } | null;

const isExpired = (u: AdminUser) => u.expire !== null && new Date(u.expire).getTime() <= Date.now();

/**
 * /admin/users: everyone (administrators) or the members of the groups one manages (managers; the
 * API limits the list), searched and paged by the server; the columns sort the page shown.
 */
export function UsersScreen() {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const toast = useToast();
  const { data: me } = useAccount();
  const isManager = me?.role === 4;
  const [keyword, setKeyword] = useState("");
  const [group, setGroup] = useState("");
  const [offset, setOffset] = useState(0);
  const [sort, setSort] = useState<SortState<Column>>({ column: "name", direction: 1 });
  const [open, setOpen] = useState<Open>(null);
  const search = useDebounced(keyword.trim());
  const users = useQuery(usersQuery({ keyword: search, member_of: group || undefined, offset, limit: LIMIT }));
  const allGroups = useQuery({ ...groupsQuery({ offset: 0, limit: 1000 }), enabled: me?.role === 3 });
  const groups = isManager ? (me?.manager_of ?? []) : (allGroups.data?.objects.map((g) => ({ id: g.id, login: g.login })) ?? []);
  const update = useUpdateUser();
  const remove = useDeleteUser();
  const resetMfa = useResetUserMfa();
  const requireMfa = useSetMfaRequired();

  const rows = useMemo(() => {
    const list = [...(users.data?.objects ?? [])];
    const value: Record<Column, (u: AdminUser) => string | number | null> = {
      name: (u) => displayName(u),
      role: (u) => t(ROLE_KEYS[u.role as 1 | 2 | 3 | 4] ?? ROLE_KEYS[2]),
      quota: (u) => u.quota,
      expire: (u) => u.expire,
      last_login: (u) => u.last_login,
    };
    return list.sort(compareBy(value[sort.column], sort.direction));
  }, [users.data, sort, t]);

  function actAs(user: AdminUser) {
    setActingAs({ id: user.id, name: displayName(user) });
    // A full load: the next screens are read as that user, nothing cached as oneself is reused.
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination
    window.location.assign("/files");
  }

  async function setActive(user: AdminUser, active: boolean) {
    try {
      await update.mutateAsync({ id: user.id, input: { active } });
      toast({ tone: "info", message: t(active ? "adminPeople.users.activated" : "adminPeople.users.deactivated", { name: displayName(user) }) });
    } catch (e) {
      toast({ tone: "error", message: describePeopleError(e, t) });
    }
  }

  async function setMfaRequired(user: AdminUser, required: boolean) {
    try {
      await requireMfa.mutateAsync({ id: user.id, required });
      toast({ tone: "info", message: t(required ? "adminPeople.users.mfaRequiredSet" : "adminPeople.users.mfaRequiredCleared", { name: displayName(user) }) });
    } catch (e) {
      toast({ tone: "error", message: describePeopleError(e, t) });
    }
  }

  const total = users.data?.nb_total_objects ?? 0;
  const mayActAs = (u: AdminUser) => u.id !== me?.id && (!isManager || u.role === 1 || u.role === 2);
  const mayChange = (u: AdminUser) => !isManager || u.role === 1 || u.role === 2;

  return (
    <div className={styles.screen}>
      <div className={styles.top}>
        <PageHeader title={t("adminPeople.users.title")} subtitle={t(isManager ? "adminPeople.users.subtitleManager" : "adminPeople.users.subtitle")} />
        <Button onClick={() => setOpen({ type: "create" })}>{t("adminPeople.users.new")}</Button>
      </div>
      <div className={styles.toolbar} role="search">
        <KeywordField
          value={keyword} placeholder={t("adminPeople.users.searchHint")}
          onChange={(value) => {
            setKeyword(value);
            setOffset(0);
          }}
        />
        <Select
          label={t("adminPeople.users.group")}
          value={group}
          onChange={(e) => {
            setGroup(e.target.value);
            setOffset(0);
          }}
          options={[{ value: "", label: t("adminPeople.users.anyGroup") }, ...groups.map((g) => ({ value: g.login, label: g.login }))]}
        />
      </div>

      <ListStatus query={users} isEmpty={total === 0} emptyText={t("adminPeople.users.none")} />
      {rows.length > 0 && (
        <div className={styles.tableWrap}>
          <table className={styles.table} aria-label={t("adminPeople.users.title")} data-testid="users-table">
            <thead>
              <tr>
                <SortHeader column="name" sort={sort} onSort={(c) => setSort(nextSort(sort, c))}>
                  {t("adminPeople.users.colName")}
                </SortHeader>
                <SortHeader column="role" sort={sort} onSort={(c) => setSort(nextSort(sort, c))}>
                  {t("adminPeople.users.role")}
                </SortHeader>
                <th scope="col">{t("adminPeople.users.groups")}</th>
                <SortHeader column="quota" sort={sort} onSort={(c) => setSort(nextSort(sort, c))}>
                  {t("adminPeople.users.quota")}
                </SortHeader>
                <SortHeader column="expire" sort={sort} onSort={(c) => setSort(nextSort(sort, c))}>
                  {t("adminPeople.users.colExpire")}
                </SortHeader>
                <SortHeader column="last_login" sort={sort} onSort={(c) => setSort(nextSort(sort, c))}>
                  {t("adminPeople.users.colLastLogin")}
                </SortHeader>
                <th scope="col">
                  <span className="visually-hidden">{t("adminPeople.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((u) => {
                const name = displayName(u);
                return (
                  <tr key={u.id}>
                    <td>
                      <span className={styles.strong}>{name}</span>
                      <span className={styles.sub}>
                        {u.login}
                        {u.email && ` · ${u.email}`}{" "}
                        {!u.active && <span className={styles.badgeOff}>{t(isExpired(u) ? "adminPeople.users.expired" : "adminPeople.users.inactive")}</span>}
                      </span>
                    </td>
                    <td>{t(ROLE_KEYS[u.role as 1 | 2 | 3 | 4] ?? ROLE_KEYS[2])}</td>
                    <td>
                      <span className={styles.chips}>
                        {u.groups.map((g) => (
                          <span key={g.id} className={styles.badge}>
                            {g.login}
                          </span>
                        ))}
                      </span>
                    </td>
                    <td className={styles.nowrap}>{u.quota === null ? t("adminPeople.users.unlimited") : formatBytes(u.quota, locale)}</td>
                    <td className={styles.nowrap}>{u.expire ? formatDay(u.expire, locale) : t("adminPeople.users.never")}</td>
                    <td className={styles.nowrap}>{formatDay(u.last_login, locale)}</td>
                    <td>
                      <div className={styles.actions}>
                        {mayChange(u) && (
                          <Button size="small" variant="secondary" aria-label={t("adminPeople.users.editName", { name })} onClick={() => setOpen({ type: "edit", user: u })}>
                            {t("adminPeople.edit")}
                          </Button>
                        )}
                        {mayActAs(u) && (
                          <Button size="small" variant="secondary" aria-label={t("adminPeople.users.actAsName", { name })} onClick={() => actAs(u)}>
                            {t("adminPeople.users.actAs")}
                          </Button>
                        )}
                        {mayChange(u) && (
                          <RowMenu
                            label={t("adminPeople.users.moreName", { name })}
                            text={t("adminPeople.more")}
                            items={[
                              ...(u.ldap ? [] : [{ label: t("adminPeople.users.resetPassword"), onSelect: () => setOpen({ type: "password", user: u }) }]),
                              { label: t("adminPeople.users.options"), href: `/admin/options?target=${u.id}` },
                              // Second factors: administrators demand them and reset them (lib/server/mfa).
                              ...(me?.role === 3
                                ? [
                                    { label: t(u.mfa_required ? "adminPeople.users.mfaRequiredOff" : "adminPeople.users.mfaRequiredOn"), onSelect: () => void setMfaRequired(u, !u.mfa_required) },
                                    ...(u.has_mfa_otp || u.has_mfa_sms || u.has_mfa_yubikey ? [{ label: t("adminPeople.users.resetMfa"), onSelect: () => setOpen({ type: "resetMfa", user: u }) }] : []),
                                  ]
                                : []),
                              ...(u.id === me?.id
                                ? []
                                : [
                                    u.active || isExpired(u)
                                      ? { label: t("adminPeople.users.deactivate"), onSelect: () => setOpen({ type: "deactivate", user: u }) }
                                      : { label: t("adminPeople.users.activate"), onSelect: () => void setActive(u, true) },
                                    { label: t("adminPeople.delete"), danger: true, onSelect: () => setOpen({ type: "delete", user: u }) },
                                  ]),
                            ]}
                          />
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
      <Pager offset={offset} total={total} limit={LIMIT} onChange={setOffset} label={t("adminPeople.users.paging")} />

      {(open?.type === "create" || open?.type === "edit") && (
        <UserDialog
          user={open.type === "edit" ? open.user : undefined}
          groups={groups}
          isManager={isManager}
          onClose={() => setOpen(null)}
          onDone={(saved) => {
            setOpen(null);
            toast({ tone: "info", message: t(open.type === "edit" ? "adminPeople.users.saved" : "adminPeople.users.created", { name: displayName(saved) }) });
          }}
        />
      )}
      {open?.type === "password" && (
        <PasswordDialog
          user={open.user}
          onClose={() => setOpen(null)}
          onDone={(message) => {
            setOpen(null);
            toast({ tone: "info", message });
          }}
        />
      )}
      {open?.type === "deactivate" && (
        <ConfirmDialog
          title={t("adminPeople.users.deactivateTitle", { name: displayName(open.user) })}
          text={t("adminPeople.users.deactivateText")}
          confirmLabel={t("adminPeople.users.deactivate")}
          onClose={() => setOpen(null)}
          onConfirm={async () => {
            await update.mutateAsync({ id: open.user.id, input: { active: false } });
            toast({ tone: "info", message: t("adminPeople.users.deactivated", { name: displayName(open.user) }) });
          }}
        />
      )}
      {open?.type === "resetMfa" && (
        <ConfirmDialog
          title={t("adminPeople.users.resetMfaTitle", { name: displayName(open.user) })}
          text={t("adminPeople.users.resetMfaText")}
          confirmLabel={t("adminPeople.users.resetMfa")}
          onClose={() => setOpen(null)}
          onConfirm={async () => {
            await resetMfa.mutateAsync(open.user.id);
            toast({ tone: "info", message: t("adminPeople.users.mfaReset", { name: displayName(open.user) }) });
          }}
        />
      )}
      {open?.type === "delete" && (
        <ConfirmDialog
          title={t("adminPeople.users.deleteTitle", { name: displayName(open.user) })}
          text={t("adminPeople.users.deleteText")}
          confirmLabel={t("adminPeople.delete")}
          onClose={() => setOpen(null)}
          onConfirm={async () => {
            await remove.mutateAsync(open.user.id);
            toast({ tone: "info", message: t("adminPeople.users.deleted", { name: displayName(open.user) }) });
          }}
        />
      )}
    </div>
  );
}
