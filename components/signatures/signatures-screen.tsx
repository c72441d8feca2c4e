"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Pager } from "@/components/admin/pager";
import { formatDate } from "@/components/file-browser/format";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/select";
import { SIGNATURE_STATUSES, type SignatureStatus } from "@/lib/contracts/signatures";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { accountQuery } from "@/lib/queries/account";
import { signatureListQuery, type SignatureBox, type SignatureResponse } from "@/lib/queries/signatures";
import { describeSignatureError } from "./describe-error";
import { ActorStatusChip, REQUEST_STATUS_LABELS, RequestStatusChip } from "./status-chip";
import styles from "./signatures.module.css";

const PAGE = 20;

/** A signing link as a path of this site: the mailed address may name another host (BASE_URL). */
export const linkPath = (link: string) => {
  try {
    return new URL(link, window.location.origin).pathname;
  } catch {
    return link;
  }
};

/** "Signatures": the requests I sent and those I am asked to sign, approve or follow, by status, paged. */
export function SignaturesScreen() {
  const t = useT();
  const [box, setBox] = useState<SignatureBox>("sent");
  const [status, setStatus] = useState<SignatureStatus | "">("");
  const [offset, setOffset] = useState(0);
  const list = useQuery(signatureListQuery(box, offset, PAGE, status));

  function choose(next: SignatureBox) {
    setBox(next);
    setOffset(0);
  }

  return (
    <div className={styles.screen}>
      <div className={styles.top}>
        <PageHeader title={t("signatures.title")} subtitle={t("signatures.subtitle")} />
        <Link className={styles.primaryLink} href="/signatures/new">
          {t("signatures.new")}
        </Link>
      </div>
      <div className={styles.listBar}>
        <div className={styles.tabs} role="group" aria-label={t("signatures.boxes")}>
          {(["sent", "received"] as const).map((value) => (
            <button key={value} type="button" className={styles.tab} aria-pressed={box === value} onClick={() => choose(value)}>
              {t(value === "sent" ? "signatures.sent" : "signatures.received")}
            </button>
          ))}
        </div>
        <Select
          className={styles.statusFilter}
          label={t("signatures.filterStatus")}
          value={status}
          onChange={(e) => {
            setStatus(e.target.value as SignatureStatus | "");
            setOffset(0);
          }}
          options={[{ value: "", label: t("signatures.anyStatus") }, ...SIGNATURE_STATUSES.filter((s) => box === "sent" || s !== "draft").map((s) => ({ value: s, label: t(REQUEST_STATUS_LABELS[s]) }))]}
        />
      </div>

      {list.isPending && <p className={styles.muted}>{t("common.loading")}</p>}
      {list.isError && (
        <div className={styles.stateBox} role="alert">
          <p>{describeSignatureError(list.error, t)}</p>
          <Button onClick={() => list.refetch()}>{t("error.retry")}</Button>
        </div>
      )}
      {list.data && list.data.objects.length === 0 && <p className={styles.stateBox}>{t(box === "sent" ? "signatures.noneSent" : "signatures.noneReceived")}</p>}
      {list.data && list.data.objects.length > 0 && (
        <>
          {box === "sent" ? <SentTable requests={list.data.objects} /> : <ReceivedTable requests={list.data.objects} />}
          <Pager offset={offset} limit={PAGE} total={list.data.nb_total_objects} onChange={setOffset} label={t("signatures.pager")} />
        </>
      )}
    </div>
  );
}

function SentTable({ requests }: { requests: SignatureResponse[] }) {
  const t = useT();
  const locale = htmlLang(useLanguage());
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table} aria-label={t("signatures.sent")}>
        <thead>
          <tr>
            <th scope="col">{t("signatures.col.name")}</th>
            <th scope="col">{t("signatures.col.status")}</th>
            <th scope="col">{t("signatures.col.progress")}</th>
            <th scope="col">{t("signatures.col.created")}</th>
            <th scope="col">{t("signatures.col.expires")}</th>
          </tr>
        </thead>
        <tbody>
          {requests.map((request) => {
            const signers = request.actors.filter((a) => a.type !== "follower");
            return (
              <tr key={request.id} data-testid="signature-row">
                <td className={styles.wrap}>
                  <Link href={request.status === "draft" ? `/signatures/${request.id}/edit` : `/signatures/${request.id}`}>{request.name}</Link>
                </td>
                <td>
                  <RequestStatusChip status={request.status} />
                </td>
                <td className={styles.nowrap}>{t("signatures.progress", { done: signers.filter((a) => a.status === "done").length, total: signers.length })}</td>
                <td className={styles.nowrap}>{formatDate(request.creation_date, locale)}</td>
                <td className={styles.nowrap}>{request.expiration_date ? formatDate(request.expiration_date, locale) : "—"}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Requests where I am an actor: my own link opens the signing page while it is my turn. */
function ReceivedTable({ requests }: { requests: SignatureResponse[] }) {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const account = useQuery(accountQuery());
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table} aria-label={t("signatures.received")}>
        <thead>
          <tr>
            <th scope="col">{t("signatures.col.name")}</th>
            <th scope="col">{t("signatures.col.from")}</th>
            <th scope="col">{t("signatures.col.status")}</th>
            <th scope="col">{t("signatures.col.mine")}</th>
            <th scope="col">{t("signatures.col.created")}</th>
            <th scope="col">
              <span className="visually-hidden">{t("signatures.col.actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {requests.map((request) => {
            const me = request.actors.find((a) => (account.data && a.user_id === Number(account.data.id)) || a.link) ?? null;
            const awaited = request.status === "ongoing" && me && me.link && me.type !== "follower" && (me.status === "notified" || me.status === "opened");
            return (
              <tr key={request.id} data-testid="signature-row">
                <td className={styles.wrap}>{request.name}</td>
                <td className={styles.wrap}>{request.owner}</td>
                <td>
                  <RequestStatusChip status={request.status} />
                </td>
                <td>{me ? <ActorStatusChip status={me.status} /> : "—"}</td>
                <td className={styles.nowrap}>{formatDate(request.creation_date, locale)}</td>
                <td className={styles.nowrap}>
                  {awaited && me?.link && (
                    <a className={styles.smallLink} href={linkPath(me.link)} aria-label={t(me.type === "approver" ? "signatures.approveName" : "signatures.signName", { name: request.name })}>
                      {t(me.type === "approver" ? "signatures.approve" : "signatures.sign")}
                    </a>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
