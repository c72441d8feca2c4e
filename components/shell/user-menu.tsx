"use client";

import Link from "next/link";
import { useId, useRef, useState, type KeyboardEvent } from "react";
import { useCloseOutside } from "@/components/use-close-outside";
import { Avatar } from "@/components/ui/avatar";
import { useT } from "@/lib/i18n/provider";
import { displayName, useAccountPictureUrl, type Account } from "@/lib/queries/account";
import { useSignOut } from "@/lib/queries/session";
import styles from "./user-menu.module.css";

/** The signed-in person's name and picture, opening a menu (WAI-ARIA menu button pattern). */
export function UserMenu({ account }: { account: Account }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const pictureUrl = useAccountPictureUrl();
  const signOut = useSignOut();
  const menuId = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const name = displayName(account);

  useCloseOutside(wrapper, open, () => setOpen(false), () => wrapper.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus());

  function onMenuKey(event: KeyboardEvent<HTMLUListElement>) {
    const items = Array.from(event.currentTarget.querySelectorAll<HTMLElement>('[role="menuitem"]'));
    const index = items.indexOf(document.activeElement as HTMLElement);
    if (event.key === "Escape") {
      setOpen(false);
      trigger.current?.focus();
    } else if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      items[(index + step + items.length) % items.length]?.focus();
    } else if (event.key === "Tab") {
      setOpen(false);
    }
  }

  return (
    <div className={styles.wrapper} ref={wrapper}>
      <button
        ref={trigger}
        type="button"
        className={styles.trigger}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={`${t("shell.userMenu")}: ${name}`}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => e.key === "ArrowDown" && setOpen(true)}
      >
        <Avatar name={name} src={pictureUrl} size={32} />
        <span className={styles.name} data-testid="user-name">
          {name}
        </span>
        <svg className={styles.chevron} width="12" height="8" viewBox="0 0 12 8" aria-hidden="true">
          <path d="M1 1.5l5 5 5-5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </button>
      {open && (
        <ul id={menuId} role="menu" aria-label={t("shell.userMenu")} className={styles.menu} onKeyDown={onMenuKey}>
          <li role="none" className={styles.identity}>
            <strong>{name}</strong>
            {account.email || account.login}
          </li>
          <li role="none">
            <Link role="menuitem" href="/account" className={styles.item} onClick={() => setOpen(false)}>
              {t("nav.account")}
            </Link>
          </li>
          <li role="none">
            <button role="menuitem" type="button" className={styles.item} disabled={signOut.isPending} onClick={() => signOut.mutate()}>
              {signOut.isPending ? t("shell.signingOut") : t("shell.signOut")}
            </button>
          </li>
        </ul>
      )}
    </div>
  );
}
