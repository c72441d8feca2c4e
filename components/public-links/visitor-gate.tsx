"use client";

import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { TextField } from "@/components/ui/text-field";
import { ApiError } from "@/lib/api-client";
import type { PublicGateJson } from "@/lib/contracts/engagement";
import { useT } from "@/lib/i18n/provider";
import { enterVisitor } from "@/lib/queries/public-links";
import publicStyles from "./public.module.css";
import styles from "./visitor-gate.module.css";

/**
 * A gated link's first step (api.md, "Document engagement on link shares"): the visitor's email,
 * the code mailed to it when the link verifies it, and the agreement to accept; `onPassed` once
 * the server handed the visitor's access token (stored where the unlock form stores its own).
 * The agreement is shown as text, never as HTML.
 */
export function VisitorGate({ linkKey, gate, onPassed }: { linkKey: string; gate: PublicGateJson; onPassed: () => void }) {
  const t = useT();
  const id = useId();
  const [email, setEmail] = useState("");
  const [code, setCode] = useState("");
  const [accepted, setAccepted] = useState(false);
  const [codeSent, setCodeSent] = useState(false);
  const [status, setStatus] = useState<Status>(null);
  const [pending, setPending] = useState(false);

  function describe(error: unknown): string {
    if (!(error instanceof ApiError)) return t("error.generic");
    if (error.code === "link_denied") return t("share.gate.denied");
    if (error.status === 429) return t("error.tooMany", { seconds: error.retryAfter ?? 60 });
    if (error.status === 403) return t("share.gate.wrongCode");
    if (error.fields.includes("agreement_accepted")) return t("share.gate.acceptRequired");
    if (error.fields.includes("email")) return t("share.gate.emailRequired");
    if (error.status === 0) return t("error.network");
    return error.message;
  }

  async function send(withCode: boolean) {
    if (gate.ask_email && !email.trim()) return setStatus({ tone: "error", message: t("share.gate.emailRequired") });
    if (gate.agreement && !accepted) return setStatus({ tone: "error", message: t("share.gate.acceptRequired") });
    setPending(true);
    try {
      const outcome = await enterVisitor(linkKey, {
        ...(gate.ask_email ? { email: email.trim() } : {}),
        ...(withCode && code.trim() ? { code: code.trim() } : {}),
        ...(gate.agreement ? { agreement_accepted: 1 as const } : {}),
      });
      if (outcome === "sent") {
        setCodeSent(true);
        setStatus({ tone: "info", message: t("share.gate.codeSent", { email: email.trim() }) });
        return;
      }
      setStatus(null);
      onPassed();
    } catch (error) {
      setStatus({ tone: "error", message: describe(error) });
    } finally {
      setPending(false);
    }
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void send(codeSent);
  }

  return (
    <form className={publicStyles.form} onSubmit={submit} noValidate data-testid="visitor-gate">
      <p>{t("share.gate.intro")}</p>
      <FormStatus status={status} banner />
      {gate.ask_email && (
        <TextField
          label={t("share.gate.email")}
          name="email"
          type="email"
          autoComplete="email"
          required
          autoFocus
          value={email}
          readOnly={codeSent}
          onChange={(e) => setEmail(e.target.value)}
        />
      )}
      {codeSent && (
        <>
          <TextField label={t("share.gate.code")} name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} autoFocus value={code} onChange={(e) => setCode(e.target.value)} />
          <Button variant="secondary" size="small" onClick={() => void send(false)} disabled={pending}>
            {t("share.gate.resend")}
          </Button>
        </>
      )}
      {gate.agreement && (
        <section aria-labelledby={`${id}-agreement`} className={publicStyles.stack}>
          <h2 id={`${id}-agreement`} className={styles.heading}>
            {t("share.gate.agreement")}
          </h2>
          {/* Scrollable, so reachable by keyboard; text only (pre-wrap), never HTML. */}
          <div className={styles.agreement} tabIndex={0} role="document" aria-labelledby={`${id}-agreement`} data-testid="gate-agreement">
            {gate.agreement}
          </div>
          <label className={styles.check}>
            <input type="checkbox" name="agreement_accepted" checked={accepted} onChange={(e) => setAccepted(e.target.checked)} />
            <span>{t("share.gate.accept")}</span>
          </label>
        </section>
      )}
      <p className={styles.recorded}>{t("share.gate.recorded")}</p>
      <Button type="submit" disabled={pending}>
        {t("share.gate.submit")}
      </Button>
    </form>
  );
}
