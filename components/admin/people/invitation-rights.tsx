"use client";

import { useT } from "@/lib/i18n/provider";
import styles from "./people.module.css";

/** The contract's rights mask, in its order. */
export const RIGHTS = [
  { bit: 1, key: "adminPeople.invitations.right.read" },
  { bit: 2, key: "adminPeople.invitations.right.download" },
  { bit: 4, key: "adminPeople.invitations.right.write" },
  { bit: 8, key: "adminPeople.invitations.right.edit" },
  { bit: 16, key: "adminPeople.invitations.right.delete" },
  { bit: 32, key: "adminPeople.invitations.right.share" },
] as const;

/** The rights an invitation grants, one checkbox per bit of the mask. */
export function RightsFieldset({ rights, onChange }: { rights: number; onChange: (rights: number) => void }) {
  const t = useT();
  return (
    <fieldset className={styles.fieldset}>
      <legend className={styles.legend}>{t("adminPeople.invitations.rights")}</legend>
      <div className={styles.checks}>
        {RIGHTS.map((r) => (
          <label key={r.bit} className={styles.check}>
            <input type="checkbox" checked={(rights & r.bit) !== 0} onChange={(e) => onChange(e.target.checked ? rights | r.bit : rights & ~r.bit)} />
            {t(r.key)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
