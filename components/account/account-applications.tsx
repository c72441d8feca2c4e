"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatDate } from "@/components/file-browser/format";
import { describeScopes } from "@/components/oauth2/scope-words";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { myOAuthGrantsQuery, useRevokeMyOAuthGrant, type OAuthGrant } from "@/lib/queries/oauth2";
import { describeError } from "./describe-error";
import styles from "./account-applications.module.css";

/** The applications I authorised (GET /api/oauth2/user/tokens), each with what it may do and a Revoke button. */
export function AccountApplications() {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const grants = useQuery(myOAuthGrantsQuery());
  const revoke = useRevokeMyOAuthGrant();
  const [status, setStatus] = useState<Status>(null);

  const end = (grant: OAuthGrant) =>
    revoke.mutate(grant.token, {
      onSuccess: () => setStatus({ tone: "success", message: t("oauth2.account.revoked", { app: grant.application }) }),
      onError: (error) => setStatus({ tone: "error", message: describeError(error, t) }),
    });

  const list = grants.data?.objects ?? [];
  return (
    <Card title={t("oauth2.account.title")} description={t("oauth2.account.subtitle")}>
      {grants.isPending && <p className="muted">{t("common.loading")}</p>}
      {grants.isError && <p role="alert">{describeError(grants.error, t)}</p>}
      {grants.isSuccess && list.length === 0 && <p className="muted">{t("oauth2.account.none")}</p>}
      {list.length > 0 && (
        <ul className={styles.list}>
          {list.map((grant) => (
            <li key={grant.token} className={styles.item}>
              <div className={styles.what}>
                <p className={styles.name}>
                  <strong>{grant.application}</strong>
                  {grant.editor && <span className="muted"> · {grant.editor}</span>}
                </p>
                <ul className={styles.scopes}>
                  {describeScopes(grant.scope, t).map((words) => (
                    <li key={words}>{words}</li>
                  ))}
                </ul>
                <p className={`muted ${styles.dates}`}>
                  {t("oauth2.account.since", { date: formatDate(grant.creation, locale) })}
                  {grant.last_used && ` · ${t("oauth2.account.lastUsed", { date: formatDate(grant.last_used, locale) })}`}
                  {` · ${grant.expiration ? t("oauth2.account.expires", { date: formatDate(grant.expiration, locale) }) : grant.scope.split(" ").includes("offline") ? t("oauth2.account.noExpiry") : ""}`}
                </p>
              </div>
              <Button variant="danger" size="small" aria-label={t("oauth2.account.revokeNamed", { app: grant.application })} disabled={revoke.isPending} onClick={() => end(grant)}>
                {t("oauth2.account.revoke")}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <FormStatus status={status} />
    </Card>
  );
}
