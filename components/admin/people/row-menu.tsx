"use client";

import Link from "next/link";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import styles from "./people.module.css";

export type RowMenuItem = { label: string; onSelect?: () => void; href?: string; danger?: boolean };

/**
 * "More" actions of a table row (WAI-ARIA menu button). Fixed to the viewport under its button,
 * so the table's scrolling frame does not clip it; scrolling or a click elsewhere closes it.
 */
export function RowMenu({ label, text, items }: { label: string; text: string; items: RowMenuItem[] }) {
  const [at, setAt] = useState<{ top: number; right: number } | null>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!at) return;
    menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const close = (event: Event) => {
      if (event.type === "pointerdown" && (menu.current?.contains(event.target as Node) || trigger.current?.contains(event.target as Node))) return;
      setAt(null);
    };
    document.addEventListener("pointerdown", close);
    window.addEventListener("scroll", close, true);
    window.addEventListener("resize", close);
    return () => {
      document.removeEventListener("pointerdown", close);
      window.removeEventListener("scroll", close, true);
      window.removeEventListener("resize", close);
    };
  }, [at]);

  function open() {
    const rect = trigger.current?.getBoundingClientRect();
    if (rect) setAt({ top: rect.bottom + 4, right: window.innerWidth - rect.right });
  }

  function onKey(event: KeyboardEvent<HTMLUListElement>) {
    const entries = Array.from(event.currentTarget.querySelectorAll<HTMLElement>('[role="menuitem"]'));
    const index = entries.indexOf(document.activeElement as HTMLElement);
    if (event.key === "Escape") {
      event.preventDefault();
      setAt(null);
      trigger.current?.focus();
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      entries[(index + step + entries.length) % entries.length]?.focus();
    } else if (event.key === "Tab") {
      setAt(null);
    }
  }

  const choose = (item: RowMenuItem) => {
    setAt(null);
    item.onSelect?.();
  };

  return (
    <>
      <button
        ref={trigger}
        type="button"
        className={styles.moreButton}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={at !== null}
        aria-controls={at ? menuId : undefined}
        onClick={() => (at ? setAt(null) : open())}
        onKeyDown={(e) => e.key === "ArrowDown" && (e.preventDefault(), open())}
      >
        {text}
        <svg width="10" height="6" viewBox="0 0 12 8" aria-hidden="true">
          <path d="M1 1.5l5 5 5-5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </button>
      {at && (
        <ul ref={menu} id={menuId} role="menu" aria-label={label} className={styles.menu} style={{ top: at.top, right: at.right }} onKeyDown={onKey}>
          {items.map((item) => (
            <li key={item.label} role="none">
              {item.href ? (
                <Link role="menuitem" href={item.href} className={styles.menuItem} onClick={() => setAt(null)}>
                  {item.label}
                </Link>
              ) : (
                <button role="menuitem" type="button" className={item.danger ? styles.menuItemDanger : styles.menuItem} onClick={() => choose(item)}>
                  {item.label}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
