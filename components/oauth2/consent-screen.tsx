"use client";

import Link from "next/link";
import { useState } from "react";
import { AuthCard, authStyles } from "@/components/auth/auth-card";
import { Button } from "@/components/ui/button";
import { FormStatus } from "@/components/ui/form-status";
import { useT } from "@/lib/i18n/provider";
import { describeScopes } from "./scope-words";
import styles from "./consent.module.css";

type Props = {
  platformName: string;
  app: { name: string; description: string | null; editor: string | null; editorUrl: string | null };
  scope: string;
  userName: string;
  /** What POST /oauth2/authorize receives back, unchanged (lib/server/oauth2/check-authorization-request.ts). */
  params: Record<string, string>;
};

/**
 * GET /oauth2/authorize: who asks (the application and its publisher), for what (each scope in
 * plain words), for whom (the signed-in person). The answer is posted with fetch and the browser
 * then goes where the server says: a form post could not follow a redirect to the application
 * under this page's `form-action 'self'`.
 */
export function ConsentScreen({ platformName, app, scope, userName, params }: Props) {
  const t = useT();
  const [sending, setSending] = useState<"allow" | "deny" | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  async function answer(allowed: boolean) {
    setSending(allowed ? "allow" : "deny");
    setFailure(null);
    try {
      const res = await fetch("/oauth2/authorize", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: new URLSearchParams({ ...params, allowed: String(allowed) }),
        credentials: "same-origin",
      });
      const body = (await res.json().catch(() => ({}))) as { redirect_to?: string; error_description?: string; error?: string };
      if (res.ok && body.redirect_to) {
        window.location.assign(body.redirect_to);
        return;
      }
      setFailure(body.error_description ?? body.error ?? String(res.status));
    } catch {
      setFailure(t("error.network"));
    }
    setSending(null);
  }

  const host = new URL(params.redirect_uri).host;
  return (
    <AuthCard platformName={platformName} title={t("oauth2.consent.title", { app: app.name })} intro={t("oauth2.consent.signedInAs", { name: userName })}>
      <div className={styles.body}>
        <p className={styles.editor}>
          {app.editor ? (
            app.editorUrl ? (
              <a href={app.editorUrl} rel="noopener noreferrer" target="_blank">
                {t("oauth2.consent.by", { editor: app.editor })}
              </a>
            ) : (
              t("oauth2.consent.by", { editor: app.editor })
            )
          ) : (
            t("oauth2.consent.noEditor")
          )}
        </p>
        {app.description && <p className={styles.description}>{app.description}</p>}
        <h2 className={styles.asks}>{t("oauth2.consent.asks", { app: app.name })}</h2>
        <ul className={styles.scopes}>
          {describeScopes(scope, t).map((words) => (
            <li key={words}>{words}</li>
          ))}
        </ul>
        <p className={styles.note}>
          {t("oauth2.consent.returnTo", { host })} {t("oauth2.consent.note")}
        </p>
        <FormStatus status={failure ? { tone: "error", message: t("oauth2.consent.failed", { reason: failure }) } : null} banner />
        <div className={`${authStyles.form} ${styles.buttons}`}>
          <Button variant="secondary" disabled={sending !== null} onClick={() => answer(false)}>
            {sending === "deny" ? t("oauth2.consent.sending") : t("oauth2.consent.deny")}
          </Button>
          <Button disabled={sending !== null} onClick={() => answer(true)} data-autofocus>
            {sending === "allow" ? t("oauth2.consent.sending") : t("oauth2.consent.allow")}
          </Button>
        </div>
      </div>
    </AuthCard>
  );
}

/** A request that cannot be answered: said here, never sent back to an address the application did not register. */
export function ConsentRefused({ platformName, reason }: { platformName: string; reason: "disabled" | "unknown_client" | "not_code_client" | "redirect_uri" }) {
  const t = useT();
  return (
    <AuthCard platformName={platformName} title={t("oauth2.consent.invalidTitle")} footer={<Link href="/">{t("oauth2.consent.home")}</Link>}>
      <p role="alert">{t(`oauth2.consent.invalid.${reason}`)}</p>
    </AuthCard>
  );
}
