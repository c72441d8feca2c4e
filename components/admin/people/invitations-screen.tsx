"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { formatDay } from "@/components/file-browser/format";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { FormStatus } from "@/components/ui/form-status";
import { TextField } from "@/components/ui/text-field";
import { useToast } from "@/components/ui/toast";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { invitationsQuery, useDeleteInvitation, useUpdateInvitation, type AdminInvitation } from "@/lib/queries/admin-people";
import { InvitationCreateDialog } from "./invitation-create-dialog";
import { RIGHTS, RightsFieldset } from "./invitation-rights";
import styles from "./people.module.css";
import { Pager } from "../pager";
import { compareBy, ConfirmDialog, describePeopleError, KeywordField, ListStatus, nextSort, SortHeader, type SortState } from "./shared";

const LIMIT = 50;
type Column = "email" | "source" | "expiration" | "state";
type Open = { type: "create" } | { type: "edit" | "delete"; invitation: AdminInvitation } | null;


type State = "used" | "expired" | "pending";
const stateOf = (i: AdminInvitation): State => (i.used_at ? "used" : i.expiration && new Date(i.expiration).getTime() <= Date.now() ? "expired" : "pending");

/**
 * /admin/invitations: every invitation (administrators; others see their own, as GET /invites
 * answers). The API gives the whole list, so search, sort and paging happen here.
 */
export function InvitationsScreen() {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const toast = useToast();
  const invitations = useQuery(invitationsQuery());
  const remove = useDeleteInvitation();
  const [keyword, setKeyword] = useState("");
  const [offset, setOffset] = useState(0);
  const [sort, setSort] = useState<SortState<Column>>({ column: "expiration", direction: -1 });
  const [open, setOpen] = useState<Open>(null);

  const filtered = useMemo(() => {
    const k = keyword.trim().toLowerCase();
    const list = (invitations.data ?? []).filter((i) => !k || i.email.toLowerCase().includes(k) || i.source_name.toLowerCase().includes(k));
    const value: Record<Column, (i: AdminInvitation) => string | number | null> = {
      email: (i) => i.email,
      source: (i) => i.source_name,
      expiration: (i) => i.expiration,
      state: (i) => stateOf(i),
    };
    return list.sort(compareBy(value[sort.column], sort.direction));
  }, [invitations.data, keyword, sort]);
  const page = filtered.slice(offset, offset + LIMIT);
  const onSort = (c: Column) => setSort(nextSort(sort, c));

  const rightsText = (mask: number) =>
    RIGHTS.filter((r) => mask & r.bit)
      .map((r) => t(r.key))
      .join(", ");

  return (
    <div className={styles.screen}>
      <div className={styles.top}>
        <PageHeader title={t("adminPeople.invitations.title")} subtitle={t("adminPeople.invitations.subtitle")} />
        <Button onClick={() => setOpen({ type: "create" })}>{t("adminPeople.invitations.new")}</Button>
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
      <ListStatus query={invitations} isEmpty={filtered.length === 0} emptyText={t("adminPeople.invitations.none")} />
      {page.length > 0 && (
        <div className={styles.tableWrap}>
          <table className={styles.table} aria-label={t("adminPeople.invitations.title")}>
            <thead>
              <tr>
                <SortHeader column="email" sort={sort} onSort={onSort}>
                  {t("adminPeople.invitations.email")}
                </SortHeader>
                <SortHeader column="source" sort={sort} onSort={onSort}>
                  {t("adminPeople.invitations.source")}
                </SortHeader>
                <th scope="col">{t("adminPeople.invitations.rights")}</th>
                <SortHeader column="expiration" sort={sort} onSort={onSort}>
                  {t("adminPeople.invitations.expiration")}
                </SortHeader>
                <SortHeader column="state" sort={sort} onSort={onSort}>
                  {t("adminPeople.invitations.state")}
                </SortHeader>
                <th scope="col">
                  <span className="visually-hidden">{t("adminPeople.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.map((i) => {
                const state = stateOf(i);
                return (
                  <tr key={i.id}>
                    <td>
                      <span className={styles.strong}>{i.email}</span>
                      <span className={styles.sub}>{t("adminPeople.invitations.folder", { id: i.folder })}</span>
                    </td>
                    <td>{i.source_name}</td>
                    <td>{rightsText(i.rights)}</td>
                    <td>{i.expiration ? formatDay(i.expiration, locale) : t("adminPeople.users.never")}</td>
                    <td>
                      <span className={state === "pending" ? styles.badgeOk : state === "expired" ? styles.badgeOff : styles.badge}>{t(`adminPeople.invitations.${state}`)}</span>
                    </td>
                    <td>
                      <div className={styles.actions}>
                        {state !== "used" && (
                          <Button size="small" variant="secondary" aria-label={t("adminPeople.invitations.editName", { email: i.email })} onClick={() => setOpen({ type: "edit", invitation: i })}>
                            {t("adminPeople.edit")}
                          </Button>
                        )}
                        <Button size="small" variant="ghost" aria-label={t("adminPeople.invitations.deleteName", { email: i.email })} onClick={() => setOpen({ type: "delete", invitation: i })}>
                          {t("adminPeople.delete")}
                        </Button>
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pager offset={offset} total={filtered.length} limit={LIMIT} onChange={setOffset} label={t("adminPeople.invitations.paging")} />

      {open?.type === "create" && (
        <InvitationCreateDialog
          onClose={() => setOpen(null)}
          onDone={(invitation) => {
            setOpen(null);
            toast({ tone: "info", message: t("adminPeople.invitations.created", { email: invitation.email }) });
          }}
        />
      )}
      {open?.type === "edit" && (
        <InvitationDialog
          invitation={open.invitation}
          onClose={() => setOpen(null)}
          onDone={() => {
            setOpen(null);
            toast({ tone: "info", message: t("adminPeople.invitations.saved", { email: open.invitation.email }) });
          }}
        />
      )}
      {open?.type === "delete" && (
        <ConfirmDialog
          title={t("adminPeople.invitations.deleteTitle", { email: open.invitation.email })}
          text={t("adminPeople.invitations.deleteText")}
          confirmLabel={t("adminPeople.delete")}
          onClose={() => setOpen(null)}
          onConfirm={async () => {
            await remove.mutateAsync(open.invitation.id);
            toast({ tone: "info", message: t("adminPeople.invitations.deleted", { email: open.invitation.email }) });
          }}
        />
      )}
    </div>
  );
}

/** Rights and expiry of an invitation not used yet (the API keeps rights within the editor's own). */
function InvitationDialog({ invitation, onClose, onDone }: { invitation: AdminInvitation; onClose: () => void; onDone: () => void }) {
  const t = useT();
  const update = useUpdateInvitation();
  const [rights, setRights] = useState(invitation.rights);
  const [expiration, setExpiration] = useState(invitation.expiration?.slice(0, 10) ?? "");
  const [error, setError] = useState<string | null>(null);

  async function submit() {
    setError(null);
    if (rights === 0) {
      setError(t("adminPeople.invitations.noRight"));
      return;
    }
    try {
      await update.mutateAsync({ id: invitation.id, input: { rights, expiration: expiration ? new Date(`${expiration}T23:59:59`).toISOString() : null } });
      onDone();
    } catch (e) {
      setError(describePeopleError(e, t));
    }
  }

  return (
    <Dialog
      title={t("adminPeople.invitations.editTitle", { email: invitation.email })}
      closeLabel={t("common.close")}
      onClose={onClose}
      onSubmit={submit}
      footer={<DialogActions cancelLabel={t("common.cancel")} onCancel={onClose} submitLabel={update.isPending ? t("common.saving") : t("common.save")} disabled={update.isPending} />}
    >
      <RightsFieldset rights={rights} onChange={setRights} />
      <TextField label={t("adminPeople.invitations.expiration")} hint={t("adminPeople.invitations.expirationHint")} type="date" value={expiration} onChange={(e) => setExpiration(e.target.value)} />
      <FormStatus status={error ? { tone: "error", message: error } : null} />
    </Dialog>
  );
}
