"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useState } from "react";
import { formatDate } from "@/components/file-browser/format";
import { PageHeader } from "@/components/page-header";
import { CopyField } from "@/components/sharing/copy-field";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import {
  auditUrl,
  signatureActivitiesQuery,
  signatureQuery,
  signedUrl,
  useCancelSignature,
  useRemind,
  type SignatureActorResponse,
  type SignatureResponse,
} from "@/lib/queries/signatures";
import { describeSignatureError } from "./describe-error";
import { ACTIVITY_LABELS, ACTOR_TYPE_LABELS, ActorStatusChip, RequestStatusChip } from "./status-chip";
import styles from "./signatures.module.css";

/** While a request is out, its page follows it (actors signing elsewhere) without a reload. */
const POLL_MS = 4000;

/** One request: each actor's status and link, reminders, cancellation, the results and the history. */
export function SignatureRequestScreen({ id }: { id: number }) {
  const t = useT();
  const request = useQuery({ ...signatureQuery(id), refetchInterval: (query) => (query.state.data?.status === "ongoing" ? POLL_MS : false) });
  if (request.isPending) return <p className={styles.muted}>{t("common.loading")}</p>;
  if (request.isError)
    return (
      <div className={styles.stateBox} role="alert">
        <p>{describeSignatureError(request.error, t)}</p>
        <Link href="/signatures">{t("signatures.backToList")}</Link>
      </div>
    );
  return <RequestView request={request.data} />;
}

const awaited = (actor: SignatureActorResponse) => actor.type !== "follower" && (actor.status === "notified" || actor.status === "opened");

function RequestView({ request }: { request: SignatureResponse }) {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const activities = useQuery({ ...signatureActivitiesQuery(request.id), refetchInterval: request.status === "ongoing" ? POLL_MS : false });
  // Polling stops with the request: read the history once more when its status moves, so the
  // last signature and the completion are listed (they land between two polls).
  const { refetch: refetchActivities } = activities;
  useEffect(() => {
    void refetchActivities();
  }, [request.status, refetchActivities]);
  const remind = useRemind(request.id);
  const cancel = useCancelSignature(request.id);
  const [status, setStatus] = useState<Status>(null);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [reminderMessage, setReminderMessage] = useState("");
  const actors = [...request.actors].sort((a, b) => a.position - b.position);
  const ongoing = request.status === "ongoing";
  const anyAwaited = ongoing && actors.some(awaited);
  const nameOf = (actorId: number | null) => {
    const actor = actors.find((a) => a.id === actorId);
    return actor ? `${actor.first_name} ${actor.last_name}` : null;
  };

  function sendReminder(actor?: SignatureActorResponse) {
    remind.mutate({ actorId: actor?.id, message: reminderMessage }, {
      onSuccess: () => setStatus({ tone: "success", message: actor ? t("signatures.request.remindedOne", { name: `${actor.first_name} ${actor.last_name}` }) : t("signatures.request.remindedAll") }),
      onError: (e) => setStatus({ tone: "error", message: describeSignatureError(e, t) }),
    });
  }

  return (
    <div className={styles.screen}>
      <div className={styles.top}>
        <PageHeader title={request.name} subtitle={t("signatures.request.subtitle", { owner: request.owner, date: formatDate(request.creation_date, locale) })} />
        <Link href="/signatures" className={styles.backLink}>
          {t("signatures.backToList")}
        </Link>
      </div>

      <section className={styles.summary} aria-label={t("signatures.request.summary")}>
        <dl className={styles.facts}>
          <div>
            <dt>{t("signatures.col.status")}</dt>
            <dd>
              <RequestStatusChip status={request.status} />
            </dd>
          </div>
          <div>
            <dt>{t("signatures.settings.mode")}</dt>
            <dd>{t(request.mode === "parallel" ? "signatures.mode.parallel" : request.mode === "mass" ? "signatures.mode.mass" : request.ordered ? "signatures.mode.ordered" : "signatures.mode.standard")}</dd>
          </div>
          <div>
            <dt>{t("signatures.col.expires")}</dt>
            <dd>{request.expiration_date ? formatDate(request.expiration_date, locale) : t("signatures.request.noExpiry")}</dd>
          </div>
          <div>
            <dt>{t("signatures.request.reminders")}</dt>
            <dd>{request.reminder_day ? t("signatures.request.everyDays", { days: request.reminder_day }) : t("signatures.request.noReminders")}</dd>
          </div>
          {request.completed_at && (
            <div>
              <dt>{t("signatures.request.completed")}</dt>
              <dd>{formatDate(request.completed_at, locale)}</dd>
            </div>
          )}
        </dl>
        <div className={styles.actions}>
          {request.status === "draft" && (
            <Link className={styles.primaryLink} href={`/signatures/${request.id}/edit`}>
              {t("signatures.request.continue")}
            </Link>
          )}
          {request.status === "done" && (
            <a className={styles.primaryLink} href={signedUrl(request.id)} download data-testid="download-signed">
              {t("signatures.request.downloadSigned")}
            </a>
          )}
          {request.status !== "draft" && (
            <a className={styles.secondaryLink} href={auditUrl(request.id)} download data-testid="download-audit">
              {t("signatures.request.downloadAudit")}
            </a>
          )}
          {anyAwaited && (
            <Button variant="secondary" onClick={() => sendReminder()} disabled={remind.isPending}>
              {t("signatures.request.remindAll")}
            </Button>
          )}
          {ongoing && (
            <Button variant="danger" onClick={() => setConfirmCancel(true)}>
              {t("signatures.request.cancel")}
            </Button>
          )}
        </div>
        {anyAwaited && (
          <label className={styles.textareaField}>
            <span className={styles.textareaLabel}>{t("signatures.request.remindMessage")}</span>
            <textarea className={styles.textarea} rows={2} maxLength={2000} value={reminderMessage} onChange={(e) => setReminderMessage(e.target.value)} data-testid="reminder-message" />
          </label>
        )}
        <FormStatus status={status} />
      </section>

      <section className={styles.block} aria-labelledby="request-actors">
        <h2 id="request-actors">{t("signatures.request.actors")}</h2>
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <thead>
              <tr>
                {request.ordered === 1 && <th scope="col">{t("signatures.request.order")}</th>}
                <th scope="col">{t("signatures.request.actor")}</th>
                <th scope="col">{t("signatures.actors.type")}</th>
                <th scope="col">{t("signatures.col.status")}</th>
                <th scope="col">{t("signatures.request.when")}</th>
                <th scope="col">
                  <span className="visually-hidden">{t("signatures.col.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {actors.map((actor) => {
                const name = `${actor.first_name} ${actor.last_name}`;
                return (
                  <tr key={actor.id} data-testid="request-actor">
                    {request.ordered === 1 && <td className={styles.num}>{actor.position}</td>}
                    <td className={styles.wrap}>
                      <strong>{name}</strong>
                      <br />
                      <span className={styles.muted}>{actor.email}</span>
                      {actor.refuse_reason && <p className={styles.refusal}>{t("signatures.request.refusedBecause", { reason: actor.refuse_reason })}</p>}
                    </td>
                    <td>{t(ACTOR_TYPE_LABELS[actor.type])}</td>
                    <td>
                      <ActorStatusChip status={actor.status} />
                    </td>
                    <td className={styles.nowrap}>{formatDate(actor.signed_at ?? actor.refuse_at ?? null, locale)}</td>
                    <td className={styles.linkCell}>
                      {ongoing && awaited(actor) && (
                        <>
                          {/* The link box first, the action after it as a bordered button of its own: never read as the box's label. */}
                          {actor.link && <CopyField value={actor.link} label={t("signatures.request.linkOf", { name })} />}
                          <Button size="small" variant="secondary" onClick={() => sendReminder(actor)} disabled={remind.isPending} aria-label={t("signatures.request.remindName", { name })}>
                            {t("signatures.request.remind")}
                          </Button>
                        </>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </section>

      {request.children && request.children.length > 0 && (
        <section className={styles.block} aria-labelledby="request-children">
          <h2 id="request-children">{t("signatures.request.children")}</h2>
          <ul className={styles.documentList}>
            {request.children.map((child) => (
              <li key={child.id} className={styles.documentRow}>
                <Link href={`/signatures/${child.id}`}>{child.name}</Link>
                <RequestStatusChip status={child.status} />
              </li>
            ))}
          </ul>
        </section>
      )}

      <section className={styles.block} aria-labelledby="request-documents">
        <h2 id="request-documents">{t("signatures.builder.documents")}</h2>
        <ul className={styles.documentList}>
          {request.documents.map((document) => (
            <li key={document.id} className={styles.documentRow}>
              <span>
                <strong>{document.name}</strong> <span className={styles.muted}>{t("signatures.builder.pages", { count: document.pages.length })}</span>
              </span>
              {document.file_signed_id && (
                <a href={`/api/file/${document.file_signed_id}/download`} download aria-label={t("signatures.request.signedFileOf", { name: document.name })}>
                  {t("signatures.request.signedFile")}
                </a>
              )}
            </li>
          ))}
        </ul>
      </section>

      <section className={styles.block} aria-labelledby="request-activities">
        <h2 id="request-activities">{t("signatures.request.activities")}</h2>
        {activities.isPending && <p className={styles.muted}>{t("common.loading")}</p>}
        {activities.isError && <p role="alert">{describeSignatureError(activities.error, t)}</p>}
        {activities.data && activities.data.length === 0 && <p className={styles.muted}>{t("signatures.request.noActivity")}</p>}
        {activities.data && activities.data.length > 0 && (
          <ol className={styles.activities} data-testid="activities">
            {activities.data.map((activity) => {
              // Who acted and whom it concerns, each named as such ("Request sent · by Ada · to Mona").
              const by = activity.by;
              const to = activity.to !== null && activity.to !== activity.from ? nameOf(activity.to) : null;
              return (
                <li key={activity.id} data-testid="activity">
                  <span className={styles.activityDate}>{formatDate(activity.date, locale)}</span>
                  <span>
                    {t(ACTIVITY_LABELS[activity.action])}
                    {by && ` · ${t("signatures.activity.by", { name: by })}`}
                    {to && ` · ${t("signatures.activity.to", { name: to })}`}
                  </span>
                  {activity.ip && <span className={styles.muted}>{activity.ip}</span>}
                </li>
              );
            })}
          </ol>
        )}
      </section>

      {confirmCancel && (
        <Dialog
          title={t("signatures.request.cancelTitle")}
          closeLabel={t("common.close")}
          onClose={() => setConfirmCancel(false)}
          onSubmit={() =>
            cancel.mutate(undefined, {
              onSuccess: () => {
                setConfirmCancel(false);
                setStatus({ tone: "info", message: t("signatures.request.cancelled") });
              },
              onError: (e) => {
                setConfirmCancel(false);
                setStatus({ tone: "error", message: describeSignatureError(e, t) });
              },
            })
          }
          footer={<DialogActions cancelLabel={t("signatures.request.keep")} onCancel={() => setConfirmCancel(false)} submitLabel={t("signatures.request.cancel")} danger focusCancel disabled={cancel.isPending} />}
        >
          <p>{t("signatures.request.cancelText", { name: request.name })}</p>
        </Dialog>
      )}
    </div>
  );
}
