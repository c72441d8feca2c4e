"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { TextField } from "@/components/ui/text-field";
import { ApiError } from "@/lib/api-client";
import { useT } from "@/lib/i18n/provider";
import { sendLinkCode, unlockLink, type LinkKind } from "@/lib/queries/public-links";
import styles from "./public.module.css";

/** The password and/or SMS-code form of a protected link; `onUnlocked` once the server gave an access token. */
export function UnlockForm({ kind, linkKey, needsPassword, needsCode, onUnlocked }: { kind: LinkKind; linkKey: string; needsPassword: boolean; needsCode: boolean; onUnlocked: () => void }) {
  const t = useT();
  const [status, setStatus] = useState<Status>(null);
  const [pending, setPending] = useState(false);
  const [codeSent, setCodeSent] = useState(false);

  function describe(error: unknown): string {
    if (!(error instanceof ApiError)) return t("error.generic");
    if (error.status === 429) return t("error.tooMany", { seconds: error.retryAfter ?? 60 });
    if (error.status === 403) return t(needsCode && !needsPassword ? "public.wrongCode" : "public.wrongPassword");
    if (error.status === 0) return t("error.network");
    return error.message;
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get("password") ?? "");
    const code = String(form.get("code") ?? "").trim();
    setPending(true);
    try {
      await unlockLink(kind, linkKey, { ...(needsPassword ? { password } : {}), ...(needsCode ? { code } : {}) });
      setStatus(null);
      onUnlocked();
    } catch (error) {
      setStatus({ tone: "error", message: describe(error) });
    } finally {
      setPending(false);
    }
  }

  async function askCode() {
    try {
      await sendLinkCode(kind, linkKey);
      setCodeSent(true);
      setStatus({ tone: "info", message: t("public.codeSent") });
    } catch (error) {
      setStatus({ tone: "error", message: describe(error) });
    }
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <p>{t(needsPassword ? "public.protectedPassword" : "public.protectedCode")}</p>
      <FormStatus status={status} banner />
      {needsPassword && <TextField label={t("public.password")} name="password" type="password" autoComplete="current-password" required autoFocus />}
      {needsCode && (
        <>
          <Button variant="secondary" onClick={askCode}>
            {codeSent ? t("public.resendCode") : t("public.sendCode")}
          </Button>
          <TextField label={t("public.code")} name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} />
        </>
      )}
      <Button type="submit" disabled={pending}>
        {t("public.unlock")}
      </Button>
    </form>
  );
}

/** What a link that cannot be used says, by the server's code. */
export function closedLinkMessage(error: unknown): "public.notFound" | "public.expired" | "public.exhausted" | "public.unavailable" {
  if (!(error instanceof ApiError)) return "public.unavailable";
  if (error.code === "link_expired") return "public.expired";
  if (error.code === "link_exhausted") return "public.exhausted";
  if (error.status === 404) return "public.notFound";
  return "public.unavailable";
}
