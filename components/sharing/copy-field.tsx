"use client";

import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { useT } from "@/lib/i18n/provider";
import styles from "./sharing.module.css";

/** A link's address, selectable, with a button that copies it. */
export function CopyField({ label, value }: { label: string; value: string }) {
  const t = useT();
  const id = useId();
  const [copied, setCopied] = useState(false);
  async function copy() {
    await navigator.clipboard?.writeText(value).catch(() => {});
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  }
  return (
    <div className={styles.copy}>
      <label htmlFor={id} className={styles.srOnly}>
        {label}
      </label>
      <input id={id} className={styles.copyInput} readOnly value={value} onFocus={(e) => e.currentTarget.select()} data-testid="link-url" />
      <Button size="small" variant="secondary" onClick={copy} aria-label={t("sharing.copyLabel", { label })}>
        {copied ? t("sharing.copied") : t("sharing.copy")}
      </Button>
    </div>
  );
}
