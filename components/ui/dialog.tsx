"use client";

import { useEffect, useId, useRef, type FormEvent, type ReactNode } from "react";
import { Button } from "./button";
import styles from "./dialog.module.css";

type Props = {
  title: string;
  /** Closing by Escape, the close button or a successful submit. */
  onClose: () => void;
  /** With onSubmit the dialog is a form: Enter submits it. */
  onSubmit?: () => void;
  children: ReactNode;
  footer: ReactNode;
  closeLabel: string;
  /** Room for side-by-side content (an editor and its preview). */
  wide?: boolean;
  /** The whole screen on a phone, upright or sideways (a signature pad). */
  sheet?: boolean;
};

/**
 * A modal dialog on the native <dialog>: showModal() makes the rest of the page inert (focus stays
 * inside) and Escape closes it; focus returns to where it was when the dialog closes.
 */
export function Dialog({ title, onClose, onSubmit, children, footer, closeLabel, wide = false, sheet = false }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const onCloseRef = useRef(onClose);
  useEffect(() => {
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const previous = document.activeElement as HTMLElement | null;
    dialog.showModal();
    const autofocus = dialog.querySelector<HTMLElement>("[data-autofocus], input, select");
    autofocus?.focus();
    return () => {
      dialog.close();
      previous?.focus?.();
    };
  }, []);

  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit?.();
  }

  return (
    <dialog
      ref={ref}
      className={[styles.dialog, wide && styles.wide, sheet && styles.sheet].filter(Boolean).join(" ")}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onCloseRef.current();
      }}
    >
      <form onSubmit={submit} className={styles.form} noValidate>
        <div className={styles.head}>
          <h2 id={titleId} className={styles.title}>
            {title}
          </h2>
          <button type="button" className={styles.close} aria-label={closeLabel} onClick={onClose}>
            <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
              <path d="M3 3l10 10M13 3 3 13" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
            </svg>
          </button>
        </div>
        <div className={styles.body}>{children}</div>
        <div className={styles.footer}>{footer}</div>
      </form>
    </dialog>
  );
}

type ActionsProps = {
  cancelLabel: string;
  onCancel: () => void;
  submitLabel: string;
  disabled?: boolean;
  danger?: boolean;
  /** Focus Cancel first (confirmations of something that cannot be undone). */
  focusCancel?: boolean;
};

/** The usual footer of a form dialog: Cancel, then the submit button. */
export function DialogActions({ cancelLabel, onCancel, submitLabel, disabled, danger, focusCancel }: ActionsProps) {
  return (
    <>
      <Button variant="secondary" onClick={onCancel} {...(focusCancel ? { "data-autofocus": true } : {})}>
        {cancelLabel}
      </Button>
      <Button type="submit" variant={danger ? "danger" : undefined} disabled={disabled}>
        {submitLabel}
      </Button>
    </>
  );
}
