"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatDate } from "@/components/file-browser/format";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Dialog } from "@/components/ui/dialog";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { sessionsQuery, useEndOtherSessions, useEndSession, type SessionItem } from "@/lib/queries/account-security";
import { describeDevice } from "./describe-device";
import { describeError } from "./describe-error";
import styles from "./account-applications.module.css";

/** Where the account is signed in (GET /api/account/sessions): end one, or every other. */
export function AccountSessions() {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const sessions = useQuery(sessionsQuery());
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const [status, setStatus] = useState<Status>(null);
  const [confirming, setConfirming] = useState(false);

  const label = (s: SessionItem) => (s.kind === "app_password" && s.name ? s.name : (describeDevice(s.user_agent) ?? t("accountSecurity.sessions.unknownDevice")));
  const end = (s: SessionItem) =>
    endOne.mutate(s.id, {
      onSuccess: () => setStatus({ tone: "success", message: t("accountSecurity.sessions.ended") }),
      onError: (error) => setStatus({ tone: "error", message: describeError(error, t) }),
    });
  const endAll = () =>
    endOthers.mutate(undefined, {
      onSuccess: () => setStatus({ tone: "success", message: t("accountSecurity.sessions.othersEnded") }),
      onError: (error) => setStatus({ tone: "error", message: describeError(error, t) }),
      onSettled: () => setConfirming(false),
    });

  const list = sessions.data?.objects ?? [];
  return (
    <Card title={t("accountSecurity.sessions.title")} description={t("accountSecurity.sessions.subtitle")}>
      {sessions.isPending && <p className="muted">{t("common.loading")}</p>}
      {sessions.isError && <p role="alert">{describeError(sessions.error, t)}</p>}
      {list.length > 0 && (
        <ul className={styles.list} aria-label={t("accountSecurity.sessions.title")} data-testid="account-sessions">
          {list.map((s) => (
            <li key={s.id} className={styles.item}>
              <div className={styles.what}>
                <p className={styles.name}>
                  <strong>{label(s)}</strong>
                  <span className="muted"> · {t(`accountSecurity.sessions.kind.${s.kind}`)}</span>
                  {s.current && <strong className={styles.current}> · {t("accountSecurity.sessions.thisDevice")}</strong>}
                </p>
                <p className={`muted ${styles.dates}`}>
                  {s.ip && `${t("accountSecurity.sessions.address", { ip: s.ip })} · `}
                  {t("accountSecurity.sessions.lastSeen", { date: formatDate(s.last_seen_at, locale) })}
                </p>
              </div>
              {!s.current && (
                <Button variant="danger" size="small" aria-label={t("accountSecurity.sessions.endNamed", { name: label(s) })} disabled={endOne.isPending} onClick={() => end(s)}>
                  {t("accountSecurity.sessions.end")}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {list.some((s) => !s.current) && (
        <div>
          <Button variant="secondary" size="small" onClick={() => setConfirming(true)}>
            {t("accountSecurity.sessions.endOthers")}
          </Button>
        </div>
      )}
      <FormStatus status={status} />
      {confirming && (
        <Dialog
          title={t("accountSecurity.sessions.endOthers")}
          closeLabel={t("common.close")}
          onClose={() => setConfirming(false)}
          onSubmit={endAll}
          footer={
            <>
              <Button variant="secondary" onClick={() => setConfirming(false)}>
                {t("common.cancel")}
              </Button>
              <Button type="submit" variant="danger" disabled={endOthers.isPending}>
                {t("accountSecurity.sessions.endOthers")}
              </Button>
            </>
          }
        >
          <p>{t("accountSecurity.sessions.endOthersWarning")}</p>
        </Dialog>
      )}
    </Card>
  );
}
