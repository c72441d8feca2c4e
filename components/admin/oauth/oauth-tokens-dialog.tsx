"use client";

import { useQuery } from "@tanstack/react-query";
import { formatDate } from "@/components/file-browser/format";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { useToast } from "@/components/ui/toast";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { oauthAppTokensQuery, useRevokeOAuthGrant, type OAuthApp } from "@/lib/queries/oauth2";
import styles from "../admin.module.css";
import { describeAdminError } from "../describe-error";

/** Who authorised one application, with what, and a Revoke per authorisation. */
export function OAuthTokensDialog({ app, onClose }: { app: OAuthApp; onClose: () => void }) {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const toast = useToast();
  const tokens = useQuery(oauthAppTokensQuery(app.client_id));
  const revoke = useRevokeOAuthGrant();
  const list = tokens.data?.objects ?? [];
  return (
    <Dialog title={t("admin.oauth.tokensTitle", { app: app.name })} closeLabel={t("admin.oauth.close")} onClose={onClose} footer={<Button onClick={onClose}>{t("admin.oauth.close")}</Button>}>
      {tokens.isPending && <p className={styles.state}>{t("common.loading")}</p>}
      {tokens.isError && <p role="alert">{describeAdminError(tokens.error, t)}</p>}
      {tokens.isSuccess && list.length === 0 && <p className={styles.state}>{t("admin.oauth.tokensNone")}</p>}
      {list.length > 0 && (
        <div className={styles.tableWrap}>
          <table className={styles.table} aria-label={t("admin.oauth.tokensTitle", { app: app.name })}>
            <thead>
              <tr>
                <th scope="col">{t("admin.oauth.user")}</th>
                <th scope="col">{t("admin.oauth.lastUsed")}</th>
                <th scope="col">
                  <span className="visually-hidden">{t("admin.oauth.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((grant) => (
                <tr key={grant.token}>
                  <td className={styles.wrap}>
                    {grant.user}
                    <div className={styles.muted}>{grant.scope}</div>
                  </td>
                  <td className={styles.nowrap}>
                    {formatDate(grant.last_used, locale)}
                    <div className={styles.muted}>
                      {t("admin.oauth.expires")}: {grant.expiration ? formatDate(grant.expiration, locale) : t("admin.oauth.never")}
                    </div>
                  </td>
                  <td>
                    <Button
                      size="small"
                      variant="danger"
                      aria-label={t("admin.oauth.revokeNamed", { name: grant.user })}
                      disabled={revoke.isPending}
                      onClick={() =>
                        revoke.mutate(grant.token, {
                          onSuccess: () => toast({ tone: "info", message: t("admin.oauth.revoked") }),
                          onError: (error) => toast({ tone: "error", message: describeAdminError(error, t) }),
                        })
                      }
                    >
                      {t("admin.oauth.revoke")}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Dialog>
  );
}
