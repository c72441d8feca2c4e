"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useState, type KeyboardEvent } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { useToast } from "@/components/ui/toast";
import { useT } from "@/lib/i18n/provider";
import { useStartWorkflow, validatorCandidatesQuery, type ValidatorCandidate } from "@/lib/queries/workflows";
import { reasonOf } from "./workflow-review";
import styles from "./workflows.module.css";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * "Start a validation" on one file (flux 1) or several (flux 4): validators from the platform
 * found by name or address, outside validators by address, a message, and whether everyone gets a
 * copy once it is complete. Each validator is mailed a link of their own.
 */
export function WorkflowStartDialog({ files, onClose }: { files: { id: number; name: string }[]; onClose: () => void }) {
  const t = useT();
  const toast = useToast();
  const id = useId();
  const start = useStartWorkflow();
  const [search, setSearch] = useState("");
  const [query, setQuery] = useState("");
  const [internal, setInternal] = useState<ValidatorCandidate[]>([]);
  const [external, setExternal] = useState<string[]>([]);
  const [email, setEmail] = useState("");
  const [comment, setComment] = useState("");
  const [sendCopy, setSendCopy] = useState(false);
  const [status, setStatus] = useState<Status>(null);
  useEffect(() => {
    const timer = setTimeout(() => setQuery(search.trim()), 250);
    return () => clearTimeout(timer);
  }, [search]);
  const candidates = useQuery(validatorCandidatesQuery(query));
  const offered = (candidates.data ?? []).filter((c) => !internal.some((i) => i.id === c.id));
  const count = internal.length + external.length;

  function pick(candidate: ValidatorCandidate) {
    setInternal((list) => [...list, candidate]);
    setSearch("");
    setQuery("");
  }

  function addExternal() {
    const address = email.trim();
    if (!EMAIL.test(address)) return setStatus({ tone: "error", message: t("workflow.start.invalidEmail") });
    if (!external.some((e) => e.toLowerCase() === address.toLowerCase())) setExternal((list) => [...list, address]);
    setEmail("");
    setStatus(null);
  }

  // Enter in these fields adds a person; it must not send the whole form.
  function onEmailKey(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== "Enter") return;
    event.preventDefault();
    addExternal();
  }
  function onSearchKey(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== "Enter") return;
    event.preventDefault();
    if (offered[0]) pick(offered[0]);
  }

  function submit() {
    if (count === 0) return setStatus({ tone: "error", message: t("workflow.start.needValidator") });
    start.mutate(
      {
        flux: files.length > 1 ? 4 : 1,
        objects: files.map((f) => f.id),
        interne: internal.map((v) => ({ id: v.id, email: v.email, name: v.name })),
        externe: external.map((address) => ({ email: address })),
        comment: comment.trim() || undefined,
        send_copy: sendCopy,
      },
      {
        onSuccess: (instance) => {
          toast({ tone: "info", message: t("workflow.start.started", { count: instance.validators?.length ?? count }) });
          onClose();
        },
        onError: (e) => setStatus({ tone: "error", message: t("workflow.start.failed", { reason: reasonOf(e, t) }) }),
      },
    );
  }

  return (
    <Dialog
      title={files.length > 1 ? t("workflow.start.titleMany", { count: files.length }) : t("workflow.start.title", { name: files[0]?.name ?? "" })}
      closeLabel={t("common.close")}
      onClose={onClose}
      onSubmit={submit}
      footer={<DialogActions cancelLabel={t("common.cancel")} onCancel={onClose} submitLabel={t("workflow.start.submit")} disabled={start.isPending} />}
    >
      <div className={styles.stack} data-testid="workflow-start">
        {files.length > 1 && (
          <ul className={styles.people} aria-label={t("workflow.review.documents")}>
            {files.map((f) => (
              <li key={f.id} className={styles.personName}>
                {f.name}
              </li>
            ))}
          </ul>
        )}
        <section className={styles.section} aria-labelledby={`${id}-internal`}>
          <h3 id={`${id}-internal`} className={styles.heading}>
            {t("workflow.start.internal")}
          </h3>
          <label className={styles.label} htmlFor={`${id}-search`}>
            {t("workflow.start.search")}
          </label>
          <input
            id={`${id}-search`}
            className={styles.input}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            onKeyDown={onSearchKey}
            autoComplete="off"
            aria-describedby={`${id}-search-hint`}
            data-autofocus
          />
          <p id={`${id}-search-hint`} className={styles.muted}>
            {t("workflow.start.searchHint")}
          </p>
          {query.length >= 3 && candidates.data && (
            <ul className={styles.results} aria-label={t("workflow.start.results")}>
              {offered.length === 0 && <li className={styles.muted}>{t("workflow.start.noMatch")}</li>}
              {offered.map((c) => (
                <li key={c.id}>
                  <button type="button" className={styles.result} onClick={() => pick(c)} aria-label={t("workflow.start.addName", { name: c.name })}>
                    {c.name} <span className={styles.muted}>{c.email}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          <PeopleList people={internal.map((v) => ({ key: v.id, label: `${v.name} <${v.email}>`, name: v.name }))} onRemove={(key) => setInternal((list) => list.filter((v) => v.id !== key))} />
        </section>
        <section className={styles.section} aria-labelledby={`${id}-external`}>
          <h3 id={`${id}-external`} className={styles.heading}>
            {t("workflow.start.external")}
          </h3>
          <label className={styles.label} htmlFor={`${id}-email`}>
            {t("workflow.start.email")}
          </label>
          <div className={styles.row}>
            <input id={`${id}-email`} className={styles.input} type="email" value={email} onChange={(e) => setEmail(e.target.value)} onKeyDown={onEmailKey} autoComplete="off" />
            <Button variant="secondary" onClick={addExternal}>
              {t("workflow.start.addEmail")}
            </Button>
          </div>
          <PeopleList people={external.map((address) => ({ key: address, label: address, name: address }))} onRemove={(key) => setExternal((list) => list.filter((e) => e !== key))} />
        </section>
        {count === 0 && <p className={styles.muted}>{t("workflow.start.none")}</p>}
        <label className={styles.label} htmlFor={`${id}-comment`}>
          {t("workflow.start.comment")}
        </label>
        <textarea id={`${id}-comment`} className={styles.textarea} value={comment} maxLength={5000} onChange={(e) => setComment(e.target.value)} />
        <label className={styles.check}>
          <input type="checkbox" checked={sendCopy} onChange={(e) => setSendCopy(e.target.checked)} />
          {t("workflow.start.sendCopy")}
        </label>
        <FormStatus status={status} />
      </div>
    </Dialog>
  );
}

function PeopleList({ people, onRemove }: { people: { key: string; label: string; name: string }[]; onRemove: (key: string) => void }) {
  const t = useT();
  if (people.length === 0) return null;
  return (
    <ul className={styles.people}>
      {people.map((p) => (
        <li key={p.key} className={styles.person}>
          <span className={styles.personName}>{p.label}</span>
          <Button size="small" variant="ghost" onClick={() => onRemove(p.key)} aria-label={t("workflow.start.remove", { name: p.name })}>
            {t("workflow.start.removeShort")}
          </Button>
        </li>
      ))}
    </ul>
  );
}
