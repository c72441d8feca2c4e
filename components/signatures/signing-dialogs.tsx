"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { TextField } from "@/components/ui/text-field";
import { ApiError } from "@/lib/api-client";
import { useT } from "@/lib/i18n/provider";
import type { Translate } from "@/lib/i18n/translate";
import { signing } from "@/lib/queries/signatures";
import publicStyles from "../public-links/public.module.css";
import { closedSigningMessage } from "./describe-error";
import styles from "./signatures.module.css";

// The signing page's dialogs: the one-time code of an advanced signature, and a refusal.

export function describeSigningError(error: unknown, t: Translate): string {
  if (!(error instanceof ApiError)) return t("error.generic");
  if (error.status === 0) return t("error.network");
  if (error.status === 410 || error.status === 404) return t(closedSigningMessage(error));
  if (error.status === 429) return t("error.tooMany", { seconds: error.retryAfter ?? 60 });
  return error.message || t("error.generic");
}

export function CodeDialog({ token, channel, destination, pending, onSubmit, onClose }: { token: string; channel: "sms" | "email"; destination: string; pending: boolean; onSubmit: (code: string) => Promise<void>; onClose: () => void }) {
  const t = useT();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [code, setCode] = useState("");
  const [status, setStatus] = useState<Status>(null);
  const [sending, setSending] = useState(false);

  async function sendCode() {
    setSending(true);
    try {
      const sent = await signing.sendCode(token);
      setSentTo(sent.destination);
      setStatus({ tone: "info", message: t(sent.channel === "sms" ? "sign.code.sentSms" : "sign.code.sentEmail", { destination: sent.destination }) });
    } catch (error) {
      setStatus({ tone: "error", message: error instanceof ApiError && error.status === 429 ? t("error.tooMany", { seconds: error.retryAfter ?? 60 }) : describeSigningError(error, t) });
    } finally {
      setSending(false);
    }
  }

  function submit() {
    const clean = code.replace(/\s/g, "");
    if (!/^\d{6}$/.test(clean)) return setStatus({ tone: "error", message: t("sign.code.format") });
    onSubmit(clean).catch((error: unknown) => {
      const wrong = error instanceof ApiError && error.status === 403;
      setStatus({ tone: "error", message: wrong ? t("sign.code.wrong") : error instanceof ApiError && error.status === 429 ? t("sign.code.tooMany") : describeSigningError(error, t) });
    });
  }

  return (
    <Dialog
      title={t("sign.code.title")}
      closeLabel={t("common.close")}
      onClose={onClose}
      onSubmit={submit}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" disabled={pending || !sentTo}>
            {t("sign.code.confirm")}
          </Button>
        </>
      }
    >
      <div className={publicStyles.form}>
        <p>{t(channel === "sms" ? "sign.code.introSms" : "sign.code.introEmail", { destination })}</p>
        <Button variant="secondary" onClick={sendCode} disabled={sending} data-autofocus>
          {sentTo ? t("public.resendCode") : t("public.sendCode")}
        </Button>
        <TextField label={t("sign.code.label")} value={code} onChange={(e) => setCode(e.target.value)} inputMode="numeric" autoComplete="one-time-code" maxLength={7} />
        <FormStatus status={status} />
      </div>
    </Dialog>
  );
}

export function RefuseDialog({ token, onDone, onClose }: { token: string; onDone: () => void; onClose: () => void }) {
  const t = useT();
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (!reason.trim()) return setError(t("sign.refuseDialog.reasonRequired"));
    setPending(true);
    try {
      await signing.refuse(token, reason.trim());
      onDone();
    } catch (e) {
      setError(describeSigningError(e, t));
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog
      title={t("sign.refuseDialog.title")}
      closeLabel={t("common.close")}
      onClose={onClose}
      onSubmit={() => void submit()}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} data-autofocus>
            {t("common.cancel")}
          </Button>
          <Button type="submit" variant="danger" disabled={pending}>
            {t("sign.refuseDialog.confirm")}
          </Button>
        </>
      }
    >
      <div className={publicStyles.form}>
        <p>{t("sign.refuseDialog.text")}</p>
        <label className={styles.textareaField}>
          <span className={styles.textareaLabel}>{t("sign.refuseDialog.reason")}</span>
          <textarea className={styles.textarea} value={reason} onChange={(e) => setReason(e.target.value)} maxLength={2000} rows={4} aria-invalid={error ? true : undefined} />
        </label>
        <FormStatus status={error ? { tone: "error", message: error } : null} />
      </div>
    </Dialog>
  );
}
