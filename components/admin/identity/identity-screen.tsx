"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { formatDate } from "@/components/file-browser/format";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { useToast } from "@/components/ui/toast";
import { isLdapType } from "@/lib/contracts/identity-providers";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { identityProvidersQuery, useDeleteProvider, useSyncProvider, useTestProvider, type IdentityProvider } from "@/lib/queries/admin-identity";
import { ConfirmDialog } from "../people/shared";
import styles from "../admin.module.css";
import { describeAdminError } from "../describe-error";
import own from "./identity.module.css";
import { ProviderDialog } from "./provider-dialog";
import { describeTest, statusKey, syncSummary, typeKey } from "./provider-labels";
import { QueryState } from "../query-state";

type Open = { type: "create" } | { type: "edit"; provider: IdentityProvider } | { type: "delete"; provider: IdentityProvider } | null;

/** /admin/identity: the identity providers, their state and last synchronisation; test, sync, edit, delete. */
export function IdentityScreen() {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const toast = useToast();
  const [syncing, setSyncing] = useState<Record<string, string | null>>({});
  const polling = Object.keys(syncing).length > 0;
  const list = useQuery(identityProvidersQuery(polling));
  const [open, setOpen] = useState<Open>(null);
  const [results, setResults] = useState<Record<string, Status>>({});
  const test = useTestProvider();
  const sync = useSyncProvider();
  const remove = useDeleteProvider();

  // A synchronisation is over when the provider's last_sync moves past what it was when asked.
  const data = list.data;
  useEffect(() => {
    if (!data) return;
    const over = Object.entries(syncing).flatMap(([id, before]) => {
      const p = data.objects.find((o) => o.id === id);
      return p && p.last_sync !== before ? [p] : [];
    });
    if (over.length === 0) return;
    setSyncing((s) => Object.fromEntries(Object.entries(s).filter(([id]) => !over.some((p) => p.id === id))));
    setResults((r) => ({
      ...r,
      ...Object.fromEntries(over.map((p) => [p.id, { tone: p.last_sync_status === "error" ? "error" : "success", message: `${t("admin.identity.syncDone", { name: p.name })} ${syncSummary(p, t)}` } satisfies Status])),
    }));
  }, [data, syncing, t]);

  async function runTest(p: IdentityProvider) {
    setResults((r) => ({ ...r, [p.id]: { tone: "info", message: t("admin.identity.testing") } }));
    try {
      const outcome = await test.mutateAsync({ id: p.id, type: p.type, ...withoutState(p) });
      setResults((r) => ({ ...r, [p.id]: describeTest(outcome, p.name, t) }));
    } catch (error) {
      setResults((r) => ({ ...r, [p.id]: { tone: "error", message: describeAdminError(error, t) } }));
    }
  }

  async function runSync(p: IdentityProvider) {
    try {
      const job = await sync.mutateAsync(p.id);
      setSyncing((s) => ({ ...s, [p.id]: p.last_sync }));
      setResults((r) => ({ ...r, [p.id]: { tone: "info", message: t("admin.identity.syncQueued", { name: p.name, id: job.job_id }) } }));
    } catch (error) {
      setResults((r) => ({ ...r, [p.id]: { tone: "error", message: describeAdminError(error, t) } }));
    }
  }

  const page = list.data;
  return (
    <div className={styles.screen}>
      <div className={styles.top}>
        <PageHeader title={t("admin.identity.title")} subtitle={t("admin.identity.subtitle")} />
        <Button onClick={() => setOpen({ type: "create" })}>{t("admin.identity.add")}</Button>
      </div>
      <QueryState query={list} />
      {page && page.objects.length === 0 && <p className={styles.stateBox}>{t("admin.identity.none")}</p>}
      {page && page.objects.length > 0 && (
        <div className={styles.tableWrap}>
          <table className={styles.table} aria-label={t("admin.identity.title")}>
            <thead>
              <tr>
                <th scope="col">{t("admin.identity.name")}</th>
                <th scope="col">{t("admin.identity.type")}</th>
                <th scope="col">{t("admin.identity.status")}</th>
                <th scope="col">{t("admin.identity.lastSync")}</th>
                <th scope="col">
                  <span className="visually-hidden">{t("admin.identity.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.objects.map((p) => {
                const state = syncing[p.id] !== undefined ? "syncing" : p.status;
                return (
                  <tr key={p.id} data-testid={`provider-${p.id}`}>
                    <td className={styles.wrap}>
                      <strong>{p.name}</strong>
                      <FormStatus status={results[p.id] ?? null} />
                    </td>
                    <td className={styles.nowrap}>{t(typeKey(p.type))}</td>
                    <td>
                      <span className={state === "error" ? styles.badgeDanger : state === "ok" ? styles.badgeOk : styles.badge}>{t(statusKey(state))}</span>
                    </td>
                    <td className={styles.wrap}>
                      {p.last_sync ? formatDate(p.last_sync, locale) : isLdapType(p.type) ? t("admin.identity.never") : "—"}
                      {p.last_sync && <div className={styles.muted}>{syncSummary(p, t)}</div>}
                    </td>
                    <td>
                      <span className={`${styles.actions} ${own.actions}`}>
                        <Button size="small" variant="secondary" aria-label={t("admin.identity.testNamed", { name: p.name })} onClick={() => runTest(p)} disabled={test.isPending}>
                          {t("admin.identity.test")}
                        </Button>
                        {isLdapType(p.type) && (
                          <Button size="small" variant="secondary" aria-label={t("admin.identity.syncNamed", { name: p.name })} onClick={() => runSync(p)} disabled={!p.enable || syncing[p.id] !== undefined}>
                            {t("admin.identity.sync")}
                          </Button>
                        )}
                        <Button size="small" variant="ghost" aria-label={t("admin.identity.editNamed", { name: p.name })} onClick={() => setOpen({ type: "edit", provider: p })}>
                          {t("admin.identity.edit")}
                        </Button>
                        <Button size="small" variant="ghost" aria-label={t("admin.identity.deleteNamed", { name: p.name })} onClick={() => setOpen({ type: "delete", provider: p })}>
                          {t("admin.identity.delete")}
                        </Button>
                      </span>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {(open?.type === "create" || open?.type === "edit") && (
        <ProviderDialog
          provider={open.type === "edit" ? open.provider : undefined}
          onClose={() => setOpen(null)}
          onDone={(saved) => {
            setOpen(null);
            toast({ tone: "info", message: t("admin.identity.saved", { name: saved.name }) });
          }}
        />
      )}
      {open?.type === "delete" && (
        <ConfirmDialog
          title={t("admin.identity.deleteTitle", { name: open.provider.name })}
          text={t("admin.identity.deleteText")}
          confirmLabel={t("admin.identity.delete")}
          onClose={() => setOpen(null)}
          onConfirm={async () => {
            await remove.mutateAsync(open.provider.id);
            toast({ tone: "info", message: t("admin.identity.deleted", { name: open.provider.name }) });
            setOpen(null);
          }}
        />
      )}
    </div>
  );
}

/** A provider as read, minus what only the server writes: the form a test sends back. */
export function withoutState(p: IdentityProvider): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(p)) {
    if (["status", "last_sync", "last_sync_status", "last_sync_result", "creation_date", "modification_date"].includes(key) || key.startsWith("has_")) continue;
    out[key] = value;
  }
  return out;
}
