"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatDate } from "@/components/file-browser/format";
import { PageHeader } from "@/components/page-header";
import { Button } from "@/components/ui/button";
import type { EmailType } from "@/lib/contracts/emails";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { emailsQuery, smsQuery, useDeleteEmail, useResendEmail, type Email } from "@/lib/queries/admin-mail";
import styles from "./admin.module.css";
import { describeAdminError } from "./describe-error";
import { MailTemplateDialog } from "./mail-template-dialog";
import { Pager } from "./pager";
import { useAdminAction } from "./use-admin-action";
import { Tabs } from "./tabs";
import { QueryState } from "./query-state";

type View = "outbox" | "sent" | "templates" | "sms";
const PAGE = 30;
const TYPE_OF: Record<Exclude<View, "sms">, EmailType> = { outbox: "EM_TE_TOSEND", sent: "EM_TE_SENDED", templates: "EM_TE_ALERT" };

/**
 * /admin/mail: the outbox (mails waiting, with the SMTP server's refusal when it refused them:
 * send again or cancel), the sent mails, the alert templates (GET/POST/PUT/DELETE /email) and
 * the text messages sent (GET /admin/sms).
 */
export function MailScreen() {
  const t = useT();
  const [view, setView] = useState<View>("outbox");
  const [offset, setOffset] = useState(0);
  return (
    <div className={styles.screen}>
      <PageHeader title={t("admin.mail.title")} subtitle={t("admin.mail.subtitle")} />
      <Tabs
        label={t("admin.mail.views")}
        value={view}
        onChange={(v) => {
          setView(v);
          setOffset(0);
        }}
        options={[
          { value: "outbox", label: t("admin.mail.outbox") },
          { value: "sent", label: t("admin.mail.sent") },
          { value: "templates", label: t("admin.mail.templates") },
          { value: "sms", label: t("admin.mail.sms") },
        ]}
      />
      {view === "sms" ? <SmsList offset={offset} onPage={setOffset} /> : <EmailList key={view} view={view} offset={offset} onPage={setOffset} />}
    </div>
  );
}

function EmailList({ view, offset, onPage }: { view: Exclude<View, "sms">; offset: number; onPage: (n: number) => void }) {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const list = useQuery(emailsQuery(TYPE_OF[view], offset, PAGE));
  const resend = useResendEmail();
  const remove = useDeleteEmail();
  const [editing, setEditing] = useState<Email | "new" | null>(null);

  const act = useAdminAction();

  const page = list.data;
  return (
    <>
      {view === "templates" && (
        <div className={styles.top}>
          <p className={styles.muted}>{t("admin.mail.templatesHint")}</p>
          <Button onClick={() => setEditing("new")}>{t("admin.mail.newTemplate")}</Button>
        </div>
      )}
      <QueryState query={list} />
      {page && page.objects.length === 0 && <p className={styles.stateBox}>{t(view === "templates" ? "admin.mail.noTemplates" : "admin.mail.none")}</p>}
      {page && page.objects.length > 0 && (
        <div className={styles.tableWrap}>
          <table className={styles.table} aria-label={t(view === "outbox" ? "admin.mail.outbox" : view === "sent" ? "admin.mail.sent" : "admin.mail.templates")}>
            <thead>
              <tr>
                {view !== "templates" && <th scope="col">{t("admin.mail.to")}</th>}
                <th scope="col">{t("admin.mail.subject")}</th>
                {view === "outbox" && <th scope="col">{t("admin.mail.state")}</th>}
                {view === "sent" && <th scope="col">{t("admin.mail.sentOn")}</th>}
                {view === "templates" && <th scope="col">{t("admin.mail.owner")}</th>}
                {view !== "sent" && (
                  <th scope="col">
                    <span className="visually-hidden">{t("admin.mail.actions")}</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {page.objects.map((mail) => (
                <tr key={mail.id}>
                  {view !== "templates" && <td className={styles.wrap}>{mail.to}</td>}
                  <td className={styles.wrap}>{mail.object}</td>
                  {view === "outbox" && (
                    <td className={styles.wrap}>
                      {mail.last_error ? (
                        <>
                          <span className={styles.badgeDanger}>{t("admin.mail.refused", { count: mail.attempts ?? 0 })}</span>
                          <div className={styles.error}>{mail.last_error}</div>
                        </>
                      ) : (
                        <span className={styles.badge}>{t("admin.mail.waiting")}</span>
                      )}
                    </td>
                  )}
                  {view === "sent" && <td className={styles.nowrap}>{formatDate(mail.last_send, locale)}</td>}
                  {view === "templates" && <td className={styles.wrap}>{mail.owner}</td>}
                  {view === "outbox" && (
                    <td>
                      <span className={styles.actions}>
                        <Button size="small" variant="secondary" disabled={resend.isPending} aria-label={t("admin.mail.resendTo", { to: mail.to ?? "" })} onClick={() => act(resend.mutateAsync(mail.id), t("admin.mail.resent", { to: mail.to ?? "" }))}>
                          {t("admin.mail.resend")}
                        </Button>
                        <Button size="small" variant="ghost" aria-label={t("admin.mail.cancelTo", { to: mail.to ?? "" })} onClick={() => act(remove.mutateAsync(mail.id), t("admin.mail.cancelled"))}>
                          {t("admin.mail.cancel")}
                        </Button>
                      </span>
                    </td>
                  )}
                  {view === "templates" && (
                    <td>
                      <span className={styles.actions}>
                        <Button size="small" variant="secondary" aria-label={t("admin.mail.editNamed", { name: mail.object })} onClick={() => setEditing(mail)}>
                          {t("admin.mail.edit")}
                        </Button>
                        <Button size="small" variant="ghost" aria-label={t("admin.mail.deleteNamed", { name: mail.object })} onClick={() => act(remove.mutateAsync(mail.id), t("admin.mail.deleted"))}>
                          {t("admin.mail.delete")}
                        </Button>
                      </span>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page && <Pager offset={offset} limit={PAGE} total={page.nb_total_objects} onChange={onPage} />}
      {editing && <MailTemplateDialog template={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
    </>
  );
}

function SmsList({ offset, onPage }: { offset: number; onPage: (n: number) => void }) {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const list = useQuery(smsQuery(offset, PAGE));
  const page = list.data;
  if (list.isPending) return <p className={styles.state}>{t("common.loading")}</p>;
  if (list.isError) return <p className={styles.stateBox} role="alert">{describeAdminError(list.error, t)}</p>;
  if (page!.objects.length === 0) return <p className={styles.stateBox}>{t("admin.mail.noSms")}</p>;
  return (
    <>
      <div className={styles.tableWrap}>
        <table className={styles.table} aria-label={t("admin.mail.sms")}>
          <thead>
            <tr>
              <th scope="col">{t("admin.mail.to")}</th>
              <th scope="col">{t("admin.mail.text")}</th>
              <th scope="col">{t("admin.mail.provider")}</th>
              <th scope="col">{t("admin.mail.state")}</th>
            </tr>
          </thead>
          <tbody>
            {page!.objects.map((sms) => (
              <tr key={sms.id}>
                <td className={styles.nowrap}>{sms.to}</td>
                <td className={styles.wrap}>{sms.body}</td>
                <td>{sms.provider}</td>
                <td className={styles.wrap}>
                  {sms.error ? <span className={styles.error}>{sms.error}</span> : sms.sent_date ? formatDate(sms.sent_date, locale) : <span className={styles.badge}>{t("admin.mail.waiting")}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager offset={offset} limit={PAGE} total={page!.nb_total_objects} onChange={onPage} />
    </>
  );
}
