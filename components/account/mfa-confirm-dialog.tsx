"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormStatus } from "@/components/ui/form-status";
import { TextField } from "@/components/ui/text-field";
import { useDialogAction } from "@/components/use-dialog-action";
import { ApiError } from "@/lib/api-client";
import { useT } from "@/lib/i18n/provider";
import type { Confirmation } from "@/lib/queries/mfa";
import { describeError } from "./describe-error";

/**
 * Asks the owner to prove they are at the keyboard before a second factor goes: their password,
 * or a code of their authenticator app when they have one.
 */
export function MfaConfirmDialog({ title, confirmLabel, hasOtp, onConfirm, onClose }: { title: string; confirmLabel: string; hasOtp: boolean; onConfirm: (c: Confirmation) => Promise<unknown>; onClose: () => void }) {
  const t = useT();
  const [value, setValue] = useState("");
  const [useCode, setUseCode] = useState(false);
  const { busy, error, setError, run } = useDialogAction((e) => (e instanceof ApiError && e.status === 403 ? t("mfa.confirmWrong") : describeError(e, t)));

  async function submit() {
    if (!value.trim()) return setError(t(useCode ? "mfa.codeMissing" : "mfa.passwordMissing"));
    await run(() => onConfirm(useCode ? { code: value.trim() } : { password: value }), onClose);
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
          <Button type="submit" variant="danger" disabled={busy}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <p>{t("mfa.confirmIntro")}</p>
      {useCode ? (
        <TextField key="code" label={t("mfa.appCode")} name="code" inputMode="numeric" autoComplete="one-time-code" value={value} onChange={(e) => setValue(e.target.value)} />
      ) : (
        <TextField key="password" label={t("signIn.password")} name="password" type="password" autoComplete="current-password" value={value} onChange={(e) => setValue(e.target.value)} />
      )}
      {hasOtp && (
        <Button
          variant="ghost"
          size="small"
          onClick={() => {
            setUseCode(!useCode);
            setValue("");
            setError(null);
          }}
        >
          {t(useCode ? "mfa.usePassword" : "mfa.useAppCode")}
        </Button>
      )}
      <FormStatus status={error ? { tone: "error", message: error } : null} />
    </Dialog>
  );
}
