"use client";

import { useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormStatus } from "@/components/ui/form-status";
import { TextField } from "@/components/ui/text-field";
import { useDialogAction } from "@/components/use-dialog-action";
import { ApiError } from "@/lib/api-client";
import type { ReauthInput, ReauthMethod } from "@/lib/contracts/account";
import { useT } from "@/lib/i18n/provider";
import { describeError } from "./describe-error";

/**
 * Asks the person at the keyboard to prove who they are before a change of what protects the
 * account (a second factor, the email): the password, or a code of the authenticator app for an
 * account without one; with neither, a recent sign-in stands for it and the dialog only confirms
 * (api.md, "Account security"). The server decides; `method` comes from GET /account/mfa.
 */
export function ReauthDialog({
  title,
  confirmLabel,
  method,
  danger = false,
  describe,
  onConfirm,
  onClose,
  children,
}: {
  title: string;
  confirmLabel: string;
  method: ReauthMethod;
  danger?: boolean;
  /** The action's own failures (a security key that did not answer); null: the usual words. */
  describe?: (error: unknown) => string | null;
  onConfirm: (reauth: ReauthInput) => Promise<unknown>;
  onClose: () => void;
  /** What the change does, said after the question. */
  children?: ReactNode;
}) {
  const t = useT();
  const [value, setValue] = useState("");
  const { busy, error, setError, run } = useDialogAction((e) => {
    if (e instanceof ApiError && e.code === "reauth_required") return t(method === "sign_in" ? "mfa.confirmSignInAgain" : method === "code" ? "mfa.codeMissing" : "mfa.passwordMissing");
    if (e instanceof ApiError && e.status === 403 && (e.details as { reason?: string } | undefined)?.reason === "wrong_confirmation") return t("mfa.confirmWrong");
    return describe?.(e) ?? describeError(e, t);
  });

  async function submit() {
    if (method !== "sign_in" && !value.trim()) return setError(t(method === "code" ? "mfa.codeMissing" : "mfa.passwordMissing"));
    const reauth: ReauthInput = method === "password" ? { password: value } : method === "code" ? { code: value.trim() } : {};
    await run(() => onConfirm(reauth), onClose);
  }

  return (
    <Dialog
      title={title}
      closeLabel={t("common.close")}
      onClose={onClose}
      onSubmit={submit}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" variant={danger ? "danger" : "primary"} disabled={busy}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <p>{t(method === "password" ? "mfa.confirmIntro" : method === "code" ? "mfa.confirmIntroCode" : "mfa.confirmIntroSignIn")}</p>
      {children}
      {method === "password" && (
        <TextField label={t("signIn.password")} name="password" type="password" autoComplete="current-password" value={value} onChange={(e) => setValue(e.target.value)} />
      )}
      {method === "code" && (
        <TextField label={t("mfa.appCode")} name="code" inputMode="numeric" autoComplete="one-time-code" value={value} onChange={(e) => setValue(e.target.value)} />
      )}
      <FormStatus status={error ? { tone: "error", message: error } : null} />
    </Dialog>
  );
}
