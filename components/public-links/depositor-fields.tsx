"use client";

import { TextField } from "@/components/ui/text-field";
import type { DepositorOption } from "@/lib/contracts/ulinks";
import { useT } from "@/lib/i18n/provider";
import type { Depositor } from "@/lib/queries/public-links";
import styles from "./public.module.css";

/** Something that reads as one email address; the server checks it for real. */
const looksLikeEmail = (text: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text.trim());

/**
 * Whether files may be sent with what the visitor typed: a required depositor needs both a name
 * and an email; an optional one only an email that reads as one, when given.
 */
export function isDepositorReady(option: DepositorOption, who: Depositor): boolean {
  if (option === "none") return true;
  const email = who.email.trim();
  if (option === "required") return who.name.trim() !== "" && looksLikeEmail(email);
  return email === "" || looksLikeEmail(email);
}

/** The name and email a drop link asks for (issue 29), marked when required. */
export function DepositorFields({ option, value, onChange, disabled }: { option: DepositorOption; value: Depositor; onChange: (who: Depositor) => void; disabled?: boolean }) {
  const t = useT();
  const required = option === "required";
  const mark = required ? ` ${t("drop.public.requiredMark")}` : "";
  return (
    <fieldset className={styles.who}>
      <legend className={styles.whoLegend}>{t("drop.public.who")}</legend>
      <TextField
        label={`${t("drop.public.name")}${mark}`}
        value={value.name}
        onChange={(e) => onChange({ ...value, name: e.target.value })}
        required={required}
        maxLength={200}
        autoComplete="name"
        disabled={disabled}
      />
      <TextField
        label={`${t("drop.public.email")}${mark}`}
        type="email"
        value={value.email}
        onChange={(e) => onChange({ ...value, email: e.target.value })}
        required={required}
        maxLength={254}
        autoComplete="email"
        disabled={disabled}
      />
      {!isDepositorReady(option, value) && <p className={styles.muted}>{t("drop.public.whoFirst")}</p>}
    </fieldset>
  );
}
