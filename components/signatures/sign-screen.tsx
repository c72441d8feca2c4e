"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { LocalTime } from "@/components/local-time";
import { Button } from "@/components/ui/button";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { ApiError } from "@/lib/api-client";
import { useT } from "@/lib/i18n/provider";
import { signing, signingQuery, type PublicSigningResponse, type SignatureCapture, type SignatureFieldResponse } from "@/lib/queries/signatures";
import { PublicFrame } from "../public-links/public-frame";
import publicStyles from "../public-links/public.module.css";
import { closedSigningMessage } from "./describe-error";
import { useMediaQuery } from "../use-media-query";
import { FieldStep } from "./field-step";
import { answers, initialsOf, initialValues, isFilled, isSignatureField, readingOrder, type Values } from "./sign-field-control";
import { SignaturePadDialog } from "./signature-pad";
import { SigningDocumentView } from "./signing-document";
import { CodeDialog, describeSigningError, RefuseDialog } from "./signing-dialogs";
import styles from "./signatures.module.css";

type Outcome = "signed" | "approved" | "refused";

/**
 * The page a signing link opens, without an account: the documents drawn with pdf.js, the
 * signer led from field to field ("Next field"), a signature drawn or typed, the one-time code
 * when the request asks for one, then Sign (or Approve), or Refuse with a reason.
 */
export function SignScreen({ token, platformName }: { token: string; platformName: string }) {
  const t = useT();
  const session = useQuery(signingQuery(token));
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  // The documents take the width; a message alone, the narrow card of the other public pages.
  let content: ReactNode;
  if (outcome) content = <Finished outcome={outcome} owner={session.data?.signature.owner ?? ""} />;
  else if (session.isPending) content = <p className={publicStyles.muted}>{t("common.loading")}</p>;
  else if (session.isError || !session.data)
    content = (
      <div className={publicStyles.stack}>
        <h1 className={publicStyles.title}>{t("sign.closed.title")}</h1>
        <FormStatus status={{ tone: "error", message: t(closedSigningMessage(session.error)) }} banner />
      </div>
    );
  else content = <Signing token={token} data={session.data} onFinished={setOutcome} />;
  return (
    <PublicFrame platformName={platformName} wide={!outcome && Boolean(session.data)}>
      {content}
    </PublicFrame>
  );
}

/** What the signer sees once done; the heading takes the focus so screen readers announce it. */
function Finished({ outcome, owner }: { outcome: Outcome; owner: string }) {
  const t = useT();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className={publicStyles.stack} data-testid="sign-finished">
      <h1 className={publicStyles.title} ref={heading} tabIndex={-1}>
        {t(outcome === "refused" ? "sign.done.refusedTitle" : outcome === "approved" ? "sign.done.approvedTitle" : "sign.done.signedTitle")}
      </h1>
      <p>{t(outcome === "refused" ? "sign.done.refusedText" : "sign.done.signedText", { owner })}</p>
    </div>
  );
}

function Signing({ token, data, onFinished }: { token: string; data: PublicSigningResponse; onFinished: (outcome: Outcome) => void }) {
  const t = useT();
  const isApprover = data.actor.type === "approver";
  const fields = useMemo(() => readingOrder(data.documents), [data.documents]);
  const [values, setValues] = useState<Values>(() => initialValues(fields, data.actor));
  const [signature, setSignature] = useState<SignatureCapture | null>(null);
  const [padOpen, setPadOpen] = useState(false);
  const [codeOpen, setCodeOpen] = useState(false);
  const [refuseOpen, setRefuseOpen] = useState(false);
  const [status, setStatus] = useState<Status>(null);
  const [pending, setPending] = useState(false);
  const [current, setCurrent] = useState<number | null>(null);
  const [invalid, setInvalid] = useState<Set<number>>(new Set());
  const pages = useRef<HTMLDivElement>(null);
  const name = `${data.actor.first_name} ${data.actor.last_name}`.trim();

  const required = fields.filter((f) => isSignatureField(f) || !f.optional);
  const filledCount = required.filter((f) => isFilled(f, values, signature)).length;

  // On a phone the current field is filled in the field step, at full size, one at a time.
  const phone = useMediaQuery("(max-width: 640px)");
  const stepField = fields.find((f) => f.id === current) ?? fields.find((f) => !isFilled(f, values, signature)) ?? fields[0];

  function focusField(field: SignatureFieldResponse) {
    setCurrent(field.id);
    const element = pages.current?.querySelector<HTMLElement>(`[data-sign-field="${field.id}"]`);
    element?.scrollIntoView({ block: "center", behavior: "smooth" });
    if (!phone) element?.focus({ preventScroll: true });
  }

  function previousField() {
    const at = fields.indexOf(stepField);
    if (at > 0) focusField(fields[at - 1]);
  }

  function onValue(field: SignatureFieldResponse, value: string | boolean) {
    setValues((v) => ({ ...v, [field.id]: value }));
    setInvalid((s) => {
      const next = new Set(s);
      next.delete(field.id);
      return next;
    });
  }

  function openPad(field: SignatureFieldResponse) {
    setCurrent(field.id);
    setPadOpen(true);
  }

  /** The next field to fill after the current one (wrapping), required ones first. */
  function nextField() {
    // On a phone the step already shows a field: the next one is after it.
    const from = current ?? (phone ? stepField?.id : undefined);
    const start = from === undefined ? -1 : fields.findIndex((f) => f.id === from);
    const after = [...fields.slice(start + 1), ...fields.slice(0, start + 1)];
    const target = after.find((f) => (isSignatureField(f) || !f.optional) && !isFilled(f, values, signature)) ?? after.find((f) => !isFilled(f, values, signature)) ?? after[0];
    if (target) focusField(target);
  }

  function missingFields() {
    return required.filter((f) => !isFilled(f, values, signature));
  }

  function submit(code?: string) {
    if (!isApprover) {
      const missing = missingFields();
      setInvalid(new Set(missing.map((f) => f.id)));
      if (missing.length > 0) {
        setStatus({ tone: "error", message: t("sign.missing", { count: missing.length }) });
        focusField(missing[0]);
        return;
      }
    }
    if (data.actor.code_required && !code) {
      setCodeOpen(true);
      return;
    }
    void send(code);
  }

  async function send(code?: string) {
    setPending(true);
    setStatus(null);
    try {
      if (isApprover) await signing.approve(token, code);
      else
        await signing.sign(token, {
          fields: answers(fields, values),
          signature: signature!,
          ...(code ? { sms_code: code } : {}),
        });
      setCodeOpen(false);
      onFinished(isApprover ? "approved" : "signed");
    } catch (error) {
      // A wrong or missing code is said in the code dialog; anything else on the page.
      if (codeOpen && error instanceof ApiError && (error.status === 403 || error.status === 429 || error.fields.includes("sms_code"))) throw error;
      setCodeOpen(false);
      setStatus({ tone: "error", message: describeSigningError(error, t) });
    } finally {
      setPending(false);
    }
  }

  return (
    <div className={publicStyles.stack}>
      <h1 className={publicStyles.title}>{data.signature.name}</h1>
      <p className={publicStyles.muted}>
        {t(isApprover ? "sign.introApprove" : "sign.intro", { owner: data.signature.owner, name })}
        {data.signature.expiration_date && (
          <>
            {" "}
            {t("sign.until")} <LocalTime iso={data.signature.expiration_date} />
          </>
        )}
      </p>
      {!isApprover && (
        <p className={styles.progressLine} aria-live="polite" data-testid="sign-progress">
          {t("sign.progress", { done: filledCount, total: required.length })}
        </p>
      )}

      <div ref={pages} className={styles.signDocuments}>
        {data.documents.map((document) => (
          <SigningDocumentView
            key={document.id}
            token={token}
            document={document}
            initials={initialsOf(data.actor)}
            values={values}
            signature={signature}
            current={current}
            invalid={invalid}
            onValue={onValue}
            onSignatureField={openPad}
            onFocusField={setCurrent}
          />
        ))}
      </div>

      <div className={styles.signBar} role="region" aria-label={t("sign.actions")}>
        <FormStatus status={status} banner />
        {phone && !isApprover && stepField && (
          <FieldStep
            fields={fields}
            field={stepField}
            values={values}
            signature={signature}
            initials={initialsOf(data.actor)}
            invalid={invalid.has(stepField.id)}
            onValue={(value) => {
              setCurrent(stepField.id);
              onValue(stepField, value);
            }}
            onSignature={() => openPad(stepField)}
            onFocus={() => setCurrent(stepField.id)}
            onPrevious={previousField}
            onNext={nextField}
          />
        )}
        <div className={styles.actions}>
          {!phone && !isApprover && fields.length > 0 && (
            <Button variant="secondary" onClick={nextField} data-testid="next-field">
              {t("sign.nextField")}
            </Button>
          )}
          {!isApprover && (
            <Button variant="secondary" onClick={() => setPadOpen(true)}>
              {signature ? t("sign.changeSignature") : t("sign.createSignature")}
            </Button>
          )}
          <Button onClick={() => submit()} disabled={pending} data-testid="sign-submit">
            {pending ? t("sign.sending") : t(isApprover ? "sign.approve" : "sign.sign")}
          </Button>
          <Button variant="ghost" onClick={() => setRefuseOpen(true)} disabled={pending}>
            {t("sign.refuse")}
          </Button>
        </div>
        <p className={styles.hint}>{t(isApprover ? "sign.legalApprove" : "sign.legal")}</p>
      </div>

      {padOpen && (
        <SignaturePadDialog
          initial={signature}
          defaultName={name}
          onClose={() => setPadOpen(false)}
          onDone={(capture) => {
            setSignature(capture);
            setPadOpen(false);
            setInvalid((s) => new Set([...s].filter((id) => !isSignatureField(fields.find((f) => f.id === id)!))));
            setStatus({ tone: "success", message: t("sign.signatureReady") });
          }}
        />
      )}
      {codeOpen && data.actor.code_channel && (
        <CodeDialog token={token} channel={data.actor.code_channel} destination={data.actor.code_destination ?? ""} pending={pending} onSubmit={(code) => send(code)} onClose={() => setCodeOpen(false)} />
      )}
      {refuseOpen && <RefuseDialog token={token} onDone={() => onFinished("refused")} onClose={() => setRefuseOpen(false)} />}
    </div>
  );
}


/** The one-time code step: sent by text message (or mail), then typed, then the signature is sent with it. */
