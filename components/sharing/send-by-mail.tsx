"use client";

import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { FormStatus, type Status } from "@/components/ui/form-status";
import { useT } from "@/lib/i18n/provider";
import { splitAddresses } from "@/lib/queries/sharing";
import { describeFileError } from "../file-browser/format";
import styles from "./sharing.module.css";

/** Recipients, a subject and a message; `send` mails the link (through the server's outbox). */
export function SendByMail({ send, pending }: { send: (input: { recipients: string[]; object: string; content: string }) => Promise<unknown>; pending: boolean }) {
  const t = useT();
  const id = useId();
  const [recipients, setRecipients] = useState("");
  const [object, setObject] = useState("");
  const [content, setContent] = useState("");
  const [status, setStatus] = useState<Status>(null);

  function submit() {
    const list = splitAddresses(recipients);
    if (list.length === 0) return setStatus({ tone: "error", message: t("sharing.noRecipients") });
    send({ recipients: list, object, content }).then(
      () => {
        setRecipients("");
        setStatus({ tone: "success", message: t("sharing.sent", { count: list.length }) });
      },
      (e) => setStatus({ tone: "error", message: describeFileError(e, t) }),
    );
  }

  return (
    <div className={styles.mail} role="group" aria-label={t("sharing.sendByMail")}>
      <label htmlFor={`${id}-to`}>{t("sharing.recipients")}</label>
      <input id={`${id}-to`} className={styles.input} type="text" inputMode="email" placeholder={t("sharing.recipientsExample")} value={recipients} onChange={(e) => setRecipients(e.target.value)} />
      <label htmlFor={`${id}-object`}>{t("sharing.subject")}</label>
      <input id={`${id}-object`} className={styles.input} type="text" value={object} onChange={(e) => setObject(e.target.value)} />
      <label htmlFor={`${id}-content`}>{t("sharing.message")}</label>
      <textarea id={`${id}-content`} className={styles.input} rows={3} value={content} onChange={(e) => setContent(e.target.value)} />
      <div>
        <Button size="small" onClick={submit} disabled={pending}>
          {t("sharing.send")}
        </Button>
      </div>
      <FormStatus status={status} />
    </div>
  );
}
