"use client";

import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { FormStatus } from "@/components/ui/form-status";
import { Select } from "@/components/ui/select";
import type { DepositorOption } from "@/lib/contracts/ulinks";
import { LINK_PASSWORD_MIN } from "@/lib/contracts/links";
import { useT } from "@/lib/i18n/provider";
import { linkState, ulinksQuery, useCreateUlink, useDeleteUlink, useSendUlink, type UlinkResponse } from "@/lib/queries/sharing";
import { describeFileError } from "../file-browser/format";
import { CopyField } from "./copy-field";
import { DropDeposits } from "./drop-deposits";
import { SendByMail } from "./send-by-mail";
import { STATE_LABELS } from "./share-row";
import styles from "./sharing.module.css";

/** Drop links of a folder: visitors deposit files into it without seeing what it holds. */
export function DropLinkDialog({ folder, onClose }: { folder: { id: number; name: string }; onClose: () => void }) {
  const t = useT();
  const id = useId();
  const ulinks = useQuery(ulinksQuery());
  const create = useCreateUlink();
  const send = useSendUlink();
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [expiration, setExpiration] = useState("");
  const [receipt, setReceipt] = useState(true);
  const [depositor, setDepositor] = useState<DepositorOption>("none");
  const [error, setError] = useState<string | null>(null);
  const [mailing, setMailing] = useState(false);
  const mine = (ulinks.data ?? []).filter((link) => link.folder_id === folder.id);

  function submit() {
    if (password && password.length < LINK_PASSWORD_MIN) return setError(t("sharing.passwordShort", { min: LINK_PASSWORD_MIN }));
    create.mutate(
      {
        folder_id: folder.id,
        alert: receipt,
        depositor,
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(password ? { password } : {}),
        ...(expiration ? { expiration_date: new Date(`${expiration}T23:59:59`).toISOString() } : {}),
      },
      {
        onSuccess: () => {
          setError(null);
          setPassword("");
        },
        onError: (e) => setError(describeFileError(e, t)),
      },
    );
  }

  return (
    <Dialog
      title={t("drop.title", { name: folder.name })}
      closeLabel={t("common.close")}
      onClose={onClose}
      onSubmit={submit}
      footer={<DialogActions cancelLabel={t("common.close")} onCancel={onClose} submitLabel={t("drop.create")} disabled={create.isPending} />}
    >
      <p className={styles.muted}>{t("drop.intro")}</p>
      {mine.length > 0 && (
        <section aria-label={t("drop.existing")} className={styles.section}>
          <h3 className={styles.heading}>{t("drop.existing")}</h3>
          <ul className={styles.links}>
            {mine.map((link) => (
              <DropRow key={link.id} link={link} />
            ))}
          </ul>
        </section>
      )}
      <fieldset className={styles.section}>
        <legend className={styles.heading}>{t("drop.newLink")}</legend>
        <label htmlFor={`${id}-name`}>{t("drop.name")}</label>
        <input id={`${id}-name`} className={styles.input} value={name} onChange={(e) => setName(e.target.value)} placeholder={t("drop.namePlaceholder")} />
        <label htmlFor={`${id}-password`}>{t("drop.password")}</label>
        <input id={`${id}-password`} className={styles.input} type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        <label className={styles.option} htmlFor={`${id}-expires`}>
          {t("sharing.expires")}
          <input id={`${id}-expires`} type="date" className={styles.dateInput} value={expiration} onChange={(e) => setExpiration(e.target.value)} />
        </label>
        <label className={styles.option}>
          <input type="checkbox" checked={receipt} onChange={(e) => setReceipt(e.target.checked)} />
          {t("drop.receipt")}
        </label>
        <Select
          label={t("drop.depositor")}
          value={depositor}
          onChange={(e) => setDepositor(e.target.value as DepositorOption)}
          options={(["none", "optional", "required"] as const).map((value) => ({ value, label: t(`drop.depositor.${value}`) }))}
        />
        <FormStatus status={error ? { tone: "error", message: error } : null} />
      </fieldset>
      <div className={styles.section}>
        <Button size="small" variant="ghost" aria-expanded={mailing} onClick={() => setMailing(!mailing)}>
          {t("drop.sendPersonal")}
        </Button>
        {mailing && <SendByMail pending={send.isPending} send={(input) => send.mutateAsync({ folderId: folder.id, alert: receipt, ...input })} />}
      </div>
    </Dialog>
  );
}

export function DropRow({ link }: { link: UlinkResponse }) {
  const t = useT();
  const remove = useDeleteUlink();
  const state = linkState(link);
  return (
    <li className={styles.link} data-testid="drop-row">
      <div className={styles.linkHead}>
        <span className={`${styles.state} ${styles[state]}`}>{t(STATE_LABELS[state])}</span>
        <span className={styles.muted}>
          {link.name ?? link.folder ?? ""}
          {link.password_protected ? ` · ${t("sharing.protected")}` : ""}
          {link.nb_deposits !== undefined ? ` · ${t("drop.deposits", { count: link.nb_deposits })}` : ""}
          {link.depositor !== "none" ? ` · ${t(`drop.depositor.${link.depositor}`)}` : ""}
        </span>
      </div>
      <CopyField label={t("sharing.address")} value={link.url} />
      <DropDeposits link={link} />
      <div className={styles.linkActions}>
        <Button size="small" variant="ghost" onClick={() => remove.mutate(link.id)} aria-label={t("drop.deleteLink")}>
          {t("sharing.delete")}
        </Button>
      </div>
    </li>
  );
}
