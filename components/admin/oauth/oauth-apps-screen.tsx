"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatDate } from "@/components/file-browser/format";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { configQuery } from "@/lib/queries/admin-config";
import { oauthAppsQuery, useDeleteOAuthApp, useResetOAuthApp, type OAuthApp } from "@/lib/queries/oauth2";
import styles from "../admin.module.css";
import { Pager } from "../pager";
import { RowMenu } from "../people/row-menu";
import { ConfirmDialog } from "../people/shared";
import { OAuthAppDialog } from "./oauth-app-dialog";
import { OAuthSecretDialog } from "./oauth-secret-dialog";
import { OAuthTokensDialog } from "./oauth-tokens-dialog";
import oauthStyles from "./oauth.module.css";
import { QueryState } from "../query-state";

const PAGE = 30;

type Open = { kind: "new" } | { kind: "edit" | "tokens" | "reset" | "delete"; app: OAuthApp } | { kind: "secret"; app: OAuthApp } | null;

/** /admin/oauth: OAuth2 applications: create (the secret shown once), edit, reset the secret, delete, see and revoke authorisations. */
export function OAuthAppsScreen() {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const toast = useToast();
  const [offset, setOffset] = useState(0);
  const [open, setOpen] = useState<Open>(null);
  const list = useQuery(oauthAppsQuery(offset, PAGE));
  const config = useQuery(configQuery());
  const reset = useResetOAuthApp();
  const remove = useDeleteOAuthApp();
  const page = list.data;
  const close = () => setOpen(null);

  return (
    <div className={styles.screen}>
      <div className={styles.top}>
        <PageHeader title={t("admin.oauth.title")} subtitle={t("admin.oauth.subtitle")} />
        <Button onClick={() => setOpen({ kind: "new" })}>{t("admin.oauth.new")}</Button>
      </div>
      {config.data && !config.data.features.oauth2 && (
        <p className={oauthStyles.warning} role="note">
          {t("admin.oauth.featureOff")}
        </p>
      )}
      <QueryState query={list} />
      {page && page.objects.length === 0 && <p className={styles.stateBox}>{t("admin.oauth.none")}</p>}
      {page && page.objects.length > 0 && (
        <div className={styles.tableWrap}>
          <table className={styles.table} aria-label={t("admin.oauth.title")}>
            <thead>
              <tr>
                <th scope="col">{t("admin.oauth.name")}</th>
                <th scope="col">{t("admin.oauth.type")}</th>
                <th scope="col">{t("admin.oauth.scopes")}</th>
                <th scope="col">{t("admin.oauth.clientId")}</th>
                <th scope="col">{t("admin.oauth.created")}</th>
                <th scope="col">
                  <span className="visually-hidden">{t("admin.oauth.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.objects.map((app) => (
                <tr key={app.client_id}>
                  <td className={styles.wrap}>
                    <strong>{app.name}</strong>
                    {app.editor && <div className={styles.muted}>{app.editor}</div>}
                  </td>
                  <td className={styles.nowrap}>
                    {t(app.type === 1 ? "admin.oauth.typeShort.1" : "admin.oauth.typeShort.0")}
                    <div className={styles.muted}>{t(`admin.oauth.kind.${app.kind}`)}</div>
                  </td>
                  <td className={styles.wrap}>{app.scope}</td>
                  <td className={oauthStyles.clientId}>{app.client_id}</td>
                  <td className={styles.nowrap}>
                    {formatDate(app.creation, locale)}
                    {app.owner && <div className={styles.muted}>{app.owner}</div>}
                  </td>
                  <td>
                    <span className={`${styles.actions} ${oauthStyles.rowActions}`}>
                      <Button size="small" variant="secondary" aria-label={t("admin.oauth.editNamed", { app: app.name })} onClick={() => setOpen({ kind: "edit", app })}>
                        {t("admin.oauth.edit")}
                      </Button>
                      <Button size="small" variant="secondary" aria-label={t("admin.oauth.tokensNamed", { app: app.name })} onClick={() => setOpen({ kind: "tokens", app })}>
                        {t("admin.oauth.tokens")}
                      </Button>
                      <RowMenu
                        label={t("admin.oauth.actionsFor", { app: app.name })}
                        text={t("admin.oauth.more")}
                        items={[
                          { label: t("admin.oauth.reset"), onSelect: () => setOpen({ kind: "reset", app }) },
                          { label: t("admin.oauth.delete"), danger: true, onSelect: () => setOpen({ kind: "delete", app }) },
                        ]}
                      />
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page && <Pager offset={offset} limit={PAGE} total={page.nb_total_objects} onChange={setOffset} />}

      {open?.kind === "new" && <OAuthAppDialog app={null} onClose={close} onDone={(app) => setOpen({ kind: "secret", app })} />}
      {open?.kind === "edit" && (
        <OAuthAppDialog
          app={open.app}
          onClose={close}
          onDone={(app) => {
            toast({ tone: "info", message: t("admin.oauth.updated", { app: app.name }) });
            close();
          }}
        />
      )}
      {open?.kind === "secret" && <OAuthSecretDialog app={open.app} onClose={close} />}
      {open?.kind === "tokens" && <OAuthTokensDialog app={open.app} onClose={close} />}
      {open?.kind === "reset" && (
        <ConfirmDialog
          title={t("admin.oauth.resetTitle", { app: open.app.name })}
          text={t("admin.oauth.resetConfirm")}
          confirmLabel={t("admin.oauth.reset")}
          onConfirm={async () => {
            const fresh = await reset.mutateAsync(open.app.client_id);
            // ConfirmDialog closes itself after this resolves; the secret opens next.
            setTimeout(() => setOpen({ kind: "secret", app: fresh }), 0);
          }}
          onClose={close}
        />
      )}
      {open?.kind === "delete" && (
        <ConfirmDialog
          title={t("admin.oauth.deleteTitle", { app: open.app.name })}
          text={t("admin.oauth.deleteConfirm")}
          confirmLabel={t("admin.oauth.delete")}
          onConfirm={async () => {
            await remove.mutateAsync(open.app.client_id);
            toast({ tone: "info", message: t("admin.oauth.deleted", { app: open.app.name }) });
          }}
          onClose={close}
        />
      )}
    </div>
  );
}
