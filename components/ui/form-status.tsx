import styles from "./status.module.css";

export type Status = { tone: "success" | "error" | "info"; message: string } | null;

/**
 * The outcome of a form, announced to screen readers: errors assertively, the rest politely.
 * The live region stays mounted so that a message appearing in it is read.
 */
export function FormStatus({ status, banner = false }: { status: Status; banner?: boolean }) {
  const tone = status?.tone ?? "info";
  const classes = [styles.status, status && banner && styles.banner, status && styles[tone]].filter(Boolean).join(" ");
  return (
    <div role={status?.tone === "error" ? "alert" : "status"} aria-live={status?.tone === "error" ? "assertive" : "polite"} className={classes}>
      {status?.message ?? ""}
    </div>
  );
}
