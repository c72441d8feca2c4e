"use client";

import { usePathname } from "next/navigation";
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import styles from "./toast.module.css";

type Toast = { id: number; message: string; tone: "info" | "error"; action?: { label: string; run: () => void }; page: string | null };
type Show = (toast: Omit<Toast, "id" | "page">) => void;

const ToastContext = createContext<Show>(() => {});

/** Short notices at the bottom of the screen (with an optional action such as Undo), read by screen readers. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const pathname = usePathname();
  const show = useCallback<Show>(
    (toast) => {
      const id = next.current++;
      setToasts((list) => [...list.slice(-2), { ...toast, id, page: pathname }]);
    },
    [pathname],
  );
  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((t) => t.id !== id)), []);
  return (
    <ToastContext.Provider value={show}>
      {children}
      <div className={styles.region} role="status" aria-live="polite">
        {/* An action (Undo) belongs to the page it was offered on: leaving the page drops it. */}
        {toasts.filter((toast) => !toast.action || toast.page === pathname).map((toast) => (
          <ToastView key={toast.id} toast={toast} onDismiss={() => dismiss(toast.id)} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}

function ToastView({ toast, onDismiss }: { toast: Toast; onDismiss: () => void }) {
  // Long enough to reach the Undo button with the keyboard.
  useEffect(() => {
    const timer = setTimeout(onDismiss, toast.action ? 10_000 : 5_000);
    return () => clearTimeout(timer);
  }, [toast, onDismiss]);
  return (
    <div className={[styles.toast, toast.tone === "error" && styles.error].filter(Boolean).join(" ")}>
      <span>{toast.message}</span>
      {toast.action && (
        <button
          type="button"
          className={styles.action}
          onClick={() => {
            toast.action?.run();
            onDismiss();
          }}
        >
          {toast.action.label}
        </button>
      )}
    </div>
  );
}

export const useToast = () => useContext(ToastContext);
