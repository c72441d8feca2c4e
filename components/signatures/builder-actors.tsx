"use client";

import { useQuery } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { Select } from "@/components/ui/select";
import { TextField } from "@/components/ui/text-field";
import { ApiError } from "@/lib/api-client";
import { ACTOR_TYPES, type ActorType } from "@/lib/contracts/signatures";
import { useT } from "@/lib/i18n/provider";
import { accountQuery } from "@/lib/queries/account";
import { platformPeopleQuery, useAddActor, useAddPlatformActor, useDeleteActor, useSwapActors, useUpdateSignature, type SignatureResponse } from "@/lib/queries/signatures";
import { describeSignatureError } from "./describe-error";
import { ACTOR_TYPE_LABELS } from "./status-chip";
import styles from "./signatures.module.css";

/** The colour a signer's fields wear on the pages, by the signer's rank among signers. */
export const SIGNER_COLOURS = ["#2f5bd3", "#b45309", "#0f766e", "#9d174d", "#6d28d9", "#166534"];
export const signerColour = (request: SignatureResponse, actorId: number) => {
  const index = request.actors.filter((a) => a.type === "signer").findIndex((a) => a.id === actorId);
  return SIGNER_COLOURS[Math.max(0, index) % SIGNER_COLOURS.length];
};

const EMPTY = { type: "signer" as ActorType, first_name: "", last_name: "", email: "", phone: "" };

/** Who takes part: signers, approvers and followers, in order when the request is ordered. */
export function BuilderActors({ request }: { request: SignatureResponse }) {
  const t = useT();
  const addActor = useAddActor(request.id);
  const deleteActor = useDeleteActor(request.id);
  const swapActors = useSwapActors(request.id);
  const update = useUpdateSignature(request.id);
  const [draft, setDraft] = useState(EMPTY);
  const [invalid, setInvalid] = useState<Set<string>>(new Set());
  const [status, setStatus] = useState<Status>(null);
  const actors = [...request.actors].sort((a, b) => a.position - b.position);
  // Order matters in the standard mode only: parallel and mass requests go to everyone at once.
  const standard = request.mode === "standard";
  const ordered = standard && request.ordered === 1;
  const busy = addActor.isPending || deleteActor.isPending || swapActors.isPending;

  function submit(event: FormEvent) {
    event.preventDefault();
    const missing = new Set(["first_name", "last_name", "email"].filter((k) => !draft[k as keyof typeof draft].trim()));
    if (draft.email.trim() && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(draft.email.trim())) missing.add("email");
    setInvalid(missing);
    if (missing.size > 0) return setStatus({ tone: "error", message: t("error.invalid") });
    const infos = { email: draft.email.trim(), first_name: draft.first_name.trim(), last_name: draft.last_name.trim(), ...(draft.type === "signer" && draft.phone.trim() ? { phone: draft.phone.trim() } : {}) };
    addActor.mutate(
      { type: draft.type, infos },
      {
        onSuccess: () => {
          setDraft({ ...EMPTY, type: draft.type });
          setStatus({ tone: "success", message: t("signatures.actors.added", { name: `${infos.first_name} ${infos.last_name}` }) });
        },
        onError: (e) => {
          setInvalid(new Set(e instanceof ApiError ? e.fields.map((f) => f.replace(/^infos\./, "")) : []));
          setStatus({ tone: "error", message: describeSignatureError(e, t) });
        },
      },
    );
  }

  function move(index: number, step: -1 | 1) {
    const actor = actors[index];
    const other = actors[index + step];
    if (!actor || !other) return;
    const fields = request.documents.flatMap((d) => d.fields);
    swapActors.mutate(
      { first: actor, second: other, fields },
      { onError: (e) => setStatus({ tone: "error", message: describeSignatureError(e, t) }), onSuccess: () => setStatus({ tone: "success", message: t("signatures.actors.moved", { name: `${actor.first_name} ${actor.last_name}`, position: index + step + 1 }) }) },
    );
  }

  const set = (key: keyof typeof EMPTY) => (e: { target: { value: string } }) => setDraft({ ...draft, [key]: e.target.value });
  const errorOf = (key: string) => (invalid.has(key) ? t("common.invalidValue") : null);

  return (
    <div className={styles.stack}>
      {standard && (
      <label className={styles.check}>
        <input
          type="checkbox"
          checked={ordered}
          disabled={update.isPending}
          onChange={(e) => update.mutate({ ordered: e.target.checked ? 1 : 0 }, { onError: (err) => setStatus({ tone: "error", message: describeSignatureError(err, t) }) })}
        />
        {t("signatures.actors.ordered")}
      </label>
      )}
      {actors.length === 0 ? (
        <p className={styles.muted}>{t("signatures.actors.none")}</p>
      ) : (
        <ol className={styles.actorList} aria-label={t("signatures.actors.list")}>
          {actors.map((actor, index) => {
            const name = `${actor.first_name} ${actor.last_name}`;
            return (
              <li key={actor.id} className={styles.actorRow} data-testid="builder-actor">
                <span className={styles.actorSwatch} style={{ background: actor.type === "signer" ? signerColour(request, actor.id) : "var(--gray-300)" }} aria-hidden="true" />
                <span className={styles.actorText}>
                  <strong>
                    {ordered && `${index + 1}. `}
                    {name}
                  </strong>
                  <span className={styles.muted}>
                    {t(ACTOR_TYPE_LABELS[actor.type])} · {actor.email}
                    {actor.phone ? ` · ${actor.phone}` : ""}
                  </span>
                </span>
                <span className={styles.rowActions}>
                  {ordered && (
                    <>
                      <Button size="small" variant="ghost" disabled={busy || index === 0} onClick={() => move(index, -1)} aria-label={t("signatures.actors.up", { name })}>
                        ↑
                      </Button>
                      <Button size="small" variant="ghost" disabled={busy || index === actors.length - 1} onClick={() => move(index, 1)} aria-label={t("signatures.actors.down", { name })}>
                        ↓
                      </Button>
                    </>
                  )}
                  <Button
                    size="small"
                    variant="ghost"
                    disabled={busy}
                    onClick={() => deleteActor.mutate(actor.id, { onError: (e) => setStatus({ tone: "error", message: describeSignatureError(e, t) }) })}
                    aria-label={t("signatures.actors.remove", { name })}
                  >
                    {t("signatures.remove")}
                  </Button>
                </span>
              </li>
            );
          })}
        </ol>
      )}
      <form className={styles.actorForm} onSubmit={submit} noValidate aria-label={t("signatures.actors.add")}>
        <Select label={t("signatures.actors.type")} value={draft.type} onChange={set("type")} options={ACTOR_TYPES.map((type) => ({ value: type, label: t(ACTOR_TYPE_LABELS[type]) }))} />
        <TextField label={t("signatures.actors.firstName")} value={draft.first_name} onChange={set("first_name")} autoComplete="off" maxLength={100} error={errorOf("first_name")} />
        <TextField label={t("signatures.actors.lastName")} value={draft.last_name} onChange={set("last_name")} autoComplete="off" maxLength={100} error={errorOf("last_name")} />
        <TextField label={t("signatures.actors.email")} type="email" value={draft.email} onChange={set("email")} autoComplete="off" maxLength={320} error={errorOf("email")} />
        {draft.type === "signer" && (
          <TextField className={styles.wideCell} label={t("signatures.actors.phone")} hint={t("signatures.actors.phoneHint")} type="tel" value={draft.phone} onChange={set("phone")} autoComplete="off" maxLength={24} error={errorOf("phone")} />
        )}
        <div className={styles.formEnd}>
          <Button type="submit" variant="secondary" disabled={addActor.isPending}>
            {t("signatures.actors.add")}
          </Button>
        </div>
      </form>
      <PlatformPeople requestId={request.id} type={draft.type} onStatus={setStatus} />
      <FormStatus status={status} />
    </div>
  );
}

/**
 * People with an account here, found by name, login or address and added by their account: the
 * request then shows in their "Received" list, where they can sign it. Not offered to external
 * accounts, which may not search the directory.
 */
function PlatformPeople({ requestId, type, onStatus }: { requestId: number; type: ActorType; onStatus: (status: Status) => void }) {
  const t = useT();
  const account = useQuery(accountQuery());
  const [search, setSearch] = useState("");
  const [debounced, setDebounced] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(search), 250);
    return () => clearTimeout(timer);
  }, [search]);
  const people = useQuery({ ...platformPeopleQuery(debounced), enabled: debounced.trim().length >= 3 && account.data !== undefined && account.data.role !== 1 });
  const add = useAddPlatformActor(requestId);
  if (!account.data || account.data.role === 1) return null;
  const typeLabel = t(ACTOR_TYPE_LABELS[type]);
  return (
    <div className={styles.peopleSearch}>
      <TextField type="search" label={t("signatures.actors.search")} hint={t("signatures.actors.searchHint")} value={search} onChange={(e) => setSearch(e.target.value)} autoComplete="off" />
      {people.isError && <p className={styles.muted}>{describeSignatureError(people.error, t)}</p>}
      {people.data && people.data.length === 0 && <p className={styles.muted}>{t("signatures.actors.noMatch")}</p>}
      {people.data && people.data.length > 0 && (
        <ul className={styles.peopleList} aria-label={t("signatures.actors.matches")}>
          {people.data.map((person) => (
            <li key={person.id} className={styles.personRow}>
              <span className={styles.actorText}>
                <strong>{person.name}</strong>
                <span className={styles.muted}>{person.email}</span>
              </span>
              <Button
                size="small"
                variant="secondary"
                disabled={add.isPending}
                aria-label={t("signatures.actors.addPerson", { name: person.name, type: typeLabel })}
                onClick={() =>
                  add.mutate(
                    { type, userId: person.id },
                    {
                      onSuccess: () => {
                        setSearch("");
                        onStatus({ tone: "success", message: t("signatures.actors.added", { name: person.name }) });
                      },
                      onError: (e) => onStatus({ tone: "error", message: describeSignatureError(e, t) }),
                    },
                  )
                }
              >
                {t("signatures.actors.addAs", { type: typeLabel })}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
