"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { FormStatus } from "@/components/ui/form-status";
import { useT } from "@/lib/i18n/provider";
import styles from "./mfa.module.css";

/** Recovery codes, shown once: the owner keeps them somewhere safe (copy or download). */
export function MfaRecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const t = useT();
  const [copied, setCopied] = useState(false);
  const text = codes.join("\n");

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  function download() {
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: "text/plain" }));
    const link = Object.assign(document.createElement("a"), { href: url, download: "recovery-codes.txt" });
    link.click();
    URL.revokeObjectURL(url);
  }

  return (
    <div className={styles.block} data-testid="mfa-recovery-codes">
      <h3>{t("mfa.recoveryTitle")}</h3>
      <p>{t("mfa.recoveryOnce")}</p>
      <ul className={styles.codes} aria-label={t("mfa.recoveryTitle")}>
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className={styles.row}>
        <Button variant="secondary" size="small" onClick={copy}>
          {t("mfa.copy")}
        </Button>
        <Button variant="secondary" size="small" onClick={download}>
          {t("mfa.download")}
        </Button>
        <Button size="small" onClick={onDone}>
          {t("mfa.recoverySaved")}
        </Button>
      </div>
      <FormStatus status={copied ? { tone: "success", message: t("mfa.copied") } : null} />
    </div>
  );
}
