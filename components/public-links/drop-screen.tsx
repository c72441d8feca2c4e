"use client";

import { useQuery } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useDropzone } from "react-dropzone";
import { LocalTime } from "@/components/local-time";
import { FormStatus } from "@/components/ui/form-status";
import { ApiError } from "@/lib/api-client";
import { useT } from "@/lib/i18n/provider";
import type { Translate } from "@/lib/i18n/translate";
import { depositFile, linkAccess, publicUlinkQuery, useRefreshPublicLink, type Depositor } from "@/lib/queries/public-links";
import { formatBytes } from "../file-browser/format";
import styles from "./public.module.css";
import { DepositorFields, isDepositorReady } from "./depositor-fields";
import { closedLinkMessage, UnlockForm } from "./unlock-form";

type Deposit = { id: number; file: File; sent: number; state: "waiting" | "sending" | "done" | "failed"; error?: string };

/**
 * The page a drop link opens: who asks for files, a drop zone, and each file's progress. The
 * visitor never sees what the folder holds, and a name that exists is never overwritten.
 */
export function DropScreen({ linkKey }: { linkKey: string }) {
  const t = useT();
  const refreshLink = useRefreshPublicLink("ulink", linkKey);
  const link = useQuery(publicUlinkQuery(linkKey));
  const [deposits, setDeposits] = useState<Deposit[]>([]);
  const [who, setWho] = useState<Depositor>({ name: "", email: "" });
  const [unlocked, setUnlocked] = useState(() => Boolean(linkAccess.get("ulink", linkKey)));
  const nextId = useRef(0);
  const queue = useRef(Promise.resolve());
  const abort = useRef(new AbortController());

  const update = (id: number, patch: Partial<Deposit>) => setDeposits((all) => all.map((d) => (d.id === id ? { ...d, ...patch } : d)));

  // Each file goes with who was typed when it was chosen, not whatever the fields hold later.
  function send(deposit: Deposit, depositor?: Depositor) {
    queue.current = queue.current.then(async () => {
      update(deposit.id, { state: "sending", error: undefined });
      try {
        await depositFile(linkKey, deposit.file, (sent) => update(deposit.id, { sent }), abort.current.signal, depositor);
        update(deposit.id, { state: "done", sent: deposit.file.size });
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) {
          linkAccess.clear("ulink", linkKey);
          setUnlocked(false);
        }
        update(deposit.id, { state: "failed", error: describeDepositError(error, t) });
      }
    });
  }

  const data = link.data;
  const locked = Boolean(data && (data.password_required || data.code_required) && !unlocked);
  const asks = data?.depositor ?? "none";
  const depositor = asks === "none" ? undefined : who;
  const dropzone = useDropzone({
    disabled: !data?.is_valid || locked || !isDepositorReady(asks, who),
    onDrop: (files) => {
      const added = files.map((file) => ({ id: nextId.current++, file, sent: 0, state: "waiting" as const }));
      setDeposits((all) => [...all, ...added]);
      added.forEach((d) => send(d, depositor));
    },
  });

  if (link.isPending) return <p className={styles.muted}>{t("common.loading")}</p>;
  if (link.isError || !data) return <Closed message={t(closedLinkMessage(link.error))} />;
  if (!data.is_valid) return <Closed message={t("public.expired")} />;

  return (
    <div className={styles.stack}>
      <h1 className={styles.title}>{data.name || t("drop.public.title")}</h1>
      <p className={styles.muted}>
        {t("drop.public.intro", { owner: data.owner })}
        {data.expiration_date && (
          <>
            {" "}
            {t("public.until")} <LocalTime iso={data.expiration_date} />
          </>
        )}
      </p>
      {locked ? (
        <UnlockForm
          kind="ulink"
          linkKey={linkKey}
          needsPassword={data.password_required}
          needsCode={data.code_required}
          onUnlocked={() => {
            setUnlocked(true);
            void refreshLink();
          }}
        />
      ) : (
        <>
          {asks !== "none" && <DepositorFields option={asks} value={who} onChange={setWho} />}
          <div {...dropzone.getRootProps({ className: `${styles.dropzone} ${dropzone.isDragActive ? styles.dragging : ""}` })} data-testid="dropzone">
            <input {...dropzone.getInputProps()} aria-label={t("drop.public.pick")} data-testid="deposit-input" />
            <p className={styles.dropText}>{t("drop.public.zone")}</p>
            <button type="button" className={styles.pick} onClick={dropzone.open} disabled={!isDepositorReady(asks, who)}>
              {t("drop.public.pick")}
            </button>
          </div>
        </>
      )}
      {deposits.length > 0 && (
        <ul className={styles.deposits} aria-label={t("drop.public.sent")}>
          {deposits.map((d) => (
            <li key={d.id} className={styles.deposit} data-testid="deposit">
              <span className={styles.depositName}>{d.file.name}</span>
              <progress max={d.file.size || 1} value={d.file.size ? d.sent : d.state === "done" ? 1 : 0} aria-label={t("drop.public.progress", { name: d.file.name })} />
              <span className={styles.muted} data-testid="deposit-state">
                {d.state === "done" ? t("drop.public.done") : d.state === "failed" ? d.error : d.state === "sending" ? `${formatBytes(d.sent)} / ${formatBytes(d.file.size)}` : t("drop.public.waiting")}
              </span>
              {d.state === "failed" && !locked && (
                <button type="button" className={styles.retry} onClick={() => send(d, depositor)}>
                  {t("error.retry")}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <FormStatus status={deposits.length > 0 && deposits.every((d) => d.state === "done") ? { tone: "success", message: t("drop.public.allDone", { count: deposits.length }) } : null} />
    </div>
  );
}

function describeDepositError(error: unknown, t: Translate): string {
  if (!(error instanceof ApiError)) return t("error.generic");
  if (error.status === 0) return t("error.network");
  if (error.status === 401) return t("drop.public.relock");
  if (error.status === 507) return t("drop.public.full");
  if (error.status === 410 || error.status === 404) return t("public.expired");
  return error.message;
}

function Closed({ message }: { message: string }) {
  return (
    <div className={styles.stack}>
      <FormStatus status={{ tone: "error", message }} banner />
    </div>
  );
}
