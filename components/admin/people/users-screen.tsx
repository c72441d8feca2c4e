"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
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
import { ConfirmDialog, describePeopleError, KeywordField, ListStatus, nextSort, ROLE_KEYS, SortHeader, useDebounced, type SortState } from "./shared";
import { UserDialog } from "./user-dialog";
import { UsersBulkDialog, type BulkAction } from "./users-bulk-dialog";

const LIMIT = 50;
/** The columns sort on the server (GET /users `sort`), so a sorted list is sorted across pages. */
type Column = "name" | "role" | "used" | "expire" | "last_login";
type Open = { type: "create" } | { type: "edit" | "password" | "delete" | "deactivate" | "resetMfa"; user: AdminUser } | { type: "bulk"; action: BulkAction } | null;

const isExpired = (u: AdminUser) => u.expire !== null && new Date(u.expire).getTime() <= Date.now();

/**
 * /admin/users: everyone (administrators) or the members of the groups one manages (managers; the
 * API limits the list), searched, sorted and paged by the server. Rows are selected for the bulk
 * actions (deactivate, add to a group, set a quota); the selection spans pages and is cleared
 * when the search or the group filter changes.
 */
export function UsersScreen({ initialKeyword = "" }: { initialKeyword?: string }) {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const toast = useToast();
  const { data: me } = useAccount();
  const isManager = me?.role === 4;
  const [keyword, setKeyword] = useState(initialKeyword);
  const [group, setGroup] = useState("");
  const [offset, setOffset] = useState(0);
  const [sort, setSort] = useState<SortState<Column>>({ column: "name", direction: 1 });
  const [open, setOpen] = useState<Open>(null);
  const [selected, setSelected] = useState<Map<string, AdminUser>>(new Map());
  const search = useDebounced(keyword.trim());
  const users = useQuery(usersQuery({ keyword: search, member_of: group || undefined, offset, limit: LIMIT, sort: sort.column, order: sort.direction === 1 ? "asc" : "desc", usage: true }));
  const allGroups = useQuery({ ...groupsQuery({ offset: 0, limit: 1000 }), enabled: me?.role === 3 });
  const groups = isManager ? (me?.manager_of ?? []) : (allGroups.data?.objects.map((g) => ({ id: g.id, login: g.login })) ?? []);
  const update = useUpdateUser();
  const remove = useDeleteUser();
  const resetMfa = useResetUserMfa();
  const requireMfa = useSetMfaRequired();

  const rows = users.data?.objects ?? [];
  const onSort = (column: Column) => {
    setSort(nextSort(sort, column));
    setOffset(0);
  };

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
  const selectable = rows.filter(mayChange);
  const pageSelected = selectable.filter((u) => selected.has(u.id)).length;

  function toggle(list: AdminUser[], on: boolean) {
    setSelected((current) => {
      const next = new Map(current);
      for (const u of list) {
        if (on) next.set(u.id, u);
        else next.delete(u.id);
      }
      return next;
    });
  }

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
            setSelected(new Map());
          }}
        />
        <Select
          label={t("adminPeople.users.group")}
          value={group}
          onChange={(e) => {
            setGroup(e.target.value);
            setOffset(0);
            setSelected(new Map());
          }}
          options={[{ value: "", label: t("adminPeople.users.anyGroup") }, ...groups.map((g) => ({ value: g.login, label: g.login }))]}
        />
      </div>

      {/* Always there once rows can be selected, so ticking the first box does not move the table. */}
      {(selectable.length > 0 || selected.size > 0) && (
        <div className={styles.bulkBar} role="region" aria-label={t("adminPeople.users.bulk.region")}>
          <span className={selected.size ? styles.strong : styles.hint} aria-live="polite">
            {selected.size ? t("adminPeople.users.bulk.selected", { count: selected.size }) : t("adminPeople.users.bulk.none")}
          </span>
          {selected.size > 0 && (
            <span className={styles.actions}>
              <Button size="small" variant="secondary" onClick={() => setOpen({ type: "bulk", action: "group" })}>
                {t("adminPeople.users.bulk.group")}
              </Button>
              <Button size="small" variant="secondary" onClick={() => setOpen({ type: "bulk", action: "quota" })}>
                {t("adminPeople.users.bulk.quota")}
              </Button>
              <Button size="small" variant="danger" onClick={() => setOpen({ type: "bulk", action: "deactivate" })}>
                {t("adminPeople.users.bulk.deactivate")}
              </Button>
              <Button size="small" variant="ghost" onClick={() => setSelected(new Map())}>
                {t("adminPeople.users.bulk.clear")}
              </Button>
            </span>
          )}
        </div>
      )}
      <ListStatus query={users} isEmpty={total === 0} emptyText={t("adminPeople.users.none")} />
      {rows.length > 0 && (
        <div className={styles.tableWrap}>
          <table className={styles.table} aria-label={t("adminPeople.users.title")} data-testid="users-table">
            <thead>
              <tr>
                <th scope="col" className={styles.selectCell}>
                  <PageCheckbox
                    label={t("adminPeople.users.bulk.selectPage")}
                    checked={selectable.length > 0 && pageSelected === selectable.length}
                    mixed={pageSelected > 0 && pageSelected < selectable.length}
                    disabled={selectable.length === 0}
                    onChange={(on) => toggle(selectable, on)}
                  />
                </th>
                <SortHeader column="name" sort={sort} onSort={onSort}>
                  {t("adminPeople.users.colName")}
                </SortHeader>
                <SortHeader column="role" sort={sort} onSort={onSort}>
                  {t("adminPeople.users.role")}
                </SortHeader>
                <th scope="col">{t("adminPeople.users.groups")}</th>
                <SortHeader column="used" sort={sort} onSort={onSort}>
                  {t("adminPeople.users.colUsage")}
                </SortHeader>
                <SortHeader column="expire" sort={sort} onSort={onSort}>
                  {t("adminPeople.users.colExpire")}
                </SortHeader>
                <SortHeader column="last_login" sort={sort} onSort={onSort}>
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
                  <tr key={u.id} className={selected.has(u.id) ? styles.selectedRow : undefined}>
                    <td className={styles.selectCell}>
                      {mayChange(u) && (
                        <input type="checkbox" className={styles.selectBox} aria-label={t("adminPeople.users.bulk.selectName", { name })} checked={selected.has(u.id)} onChange={(e) => toggle([u], e.target.checked)} />
                      )}
                    </td>
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
                    <td className={styles.nowrap}>
                      <Usage used={u.used ?? 0} quota={u.quota} locale={locale} />
                    </td>
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
      {open?.type === "bulk" && (
        <UsersBulkDialog
          action={open.action}
          users={[...selected.values()]}
          meId={me?.id}
          groups={groups}
          onClose={() => setOpen(null)}
          onDone={(failed) => {
            setOpen(null);
            setSelected(new Map(failed.map((u) => [u.id, u])));
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

/** "1.2 GB of 5 GB" over a small meter, or the bytes used and "No limit". */
function Usage({ used, quota, locale }: { used: number; quota: number | null; locale: string }) {
  const t = useT();
  if (quota === null)
    return (
      <>
        {formatBytes(used, locale)}
        <span className={styles.sub}>{t("adminPeople.users.unlimited")}</span>
      </>
    );
  const share = quota > 0 ? Math.min(1, used / quota) : 1;
  const tone = share >= 1 ? styles.meterFull : share >= 0.8 ? styles.meterHigh : undefined;
  return (
    <>
      {t("adminPeople.users.usageOf", { used: formatBytes(used, locale), quota: formatBytes(quota, locale) })}
      <span className={[styles.meter, tone].filter(Boolean).join(" ")} aria-hidden="true">
        {/* A sliver for any use at all, so a few bytes of a large quota do not read as none. */}
        <span style={{ width: `${Math.round(share * 100)}%`, minWidth: used > 0 ? 3 : 0 }} />
      </span>
    </>
  );
}

/** "Select the whole page": checked, unchecked or mixed (some rows of the page selected). */
function PageCheckbox({ label, checked, mixed, disabled, onChange }: { label: string; checked: boolean; mixed: boolean; disabled: boolean; onChange: (on: boolean) => void }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = mixed;
  }, [mixed]);
  return <input ref={ref} type="checkbox" className={styles.selectBox} aria-label={label} checked={checked} disabled={disabled} onChange={(e) => onChange(mixed ? true : e.target.checked)} />;
}
