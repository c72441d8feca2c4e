"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { TextField } from "@/components/ui/text-field";
import { useT } from "@/lib/i18n/provider";
import type { OAuthApp } from "@/lib/queries/oauth2";
import styles from "../admin.module.css";

/** The client id and the secret of a created or reset application: the secret is never shown again. */
export function OAuthSecretDialog({ app, onClose }: { app: OAuthApp; onClose: () => void }) {
  const t = useT();
  const [copied, setCopied] = useState(false);
  const copy = () => navigator.clipboard?.writeText(app.client_secret ?? "").then(() => setCopied(true), () => setCopied(false));
  return (
    <Dialog title={t("admin.oauth.secretTitle", { app: app.name })} closeLabel={t("admin.oauth.close")} onClose={onClose} footer={<Button onClick={onClose}>{t("admin.oauth.close")}</Button>}>
      <div className={styles.form}>
        <p role="status">{t("admin.oauth.secretOnce")}</p>
        <TextField label={t("admin.oauth.clientId")} value={app.client_id} readOnly spellCheck={false} onFocus={(e) => e.currentTarget.select()} />
        <TextField label={t("admin.oauth.secret")} value={app.client_secret ?? ""} readOnly spellCheck={false} onFocus={(e) => e.currentTarget.select()} data-secret="" />
        <div className={styles.actions}>
          <Button variant="secondary" onClick={copy}>
            {t("admin.oauth.copy")}
          </Button>
          <span aria-live="polite">{copied ? t("admin.oauth.copied") : ""}</span>
        </div>
      </div>
    </Dialog>
  );
}
