"use client";

import { useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useRef, useState, type KeyboardEvent } from "react";
import { Button } from "@/components/ui/button";
import { useCloseOutside } from "@/components/use-close-outside";
import { LocalTime } from "@/components/local-time";
import { useT } from "@/lib/i18n/provider";
import type { MessageKey } from "@/lib/i18n/translate";
import { latestNotificationsQuery, useMarkAllNotificationsRead, useMarkNotificationRead, type NotificationResponse } from "@/lib/queries/notifications";
import styles from "./notification-bell.module.css";

const SAYS: Record<NotificationResponse["type"], MessageKey> = {
  share: "notifications.share",
  comment: "notifications.comment",
  alert: "notifications.alert",
  signature: "notifications.signature",
  validation: "notifications.validation",
  deposit: "notifications.deposit",
};

/** Where a notification leads: the path the server wrote, else the object's own page. */
export function notificationHref(n: NotificationResponse): string {
  if (n.object.url) return n.object.url;
  if (n.object.type === "folder") return `/files/${n.object.id}`;
  if (n.object.type === "signature") return "/signatures";
  if (n.object.type === "workflow") return "/workflows";
  if (n.object.type === "ulink") return "/links";
  return "/files";
}

/**
 * The header's bell (issue 29): the unread count, polled every minute and on focus, opening a
 * panel of the latest notifications. Escape or a click outside closes it and gives the focus back.
 */
export function NotificationBell() {
  const t = useT();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const latest = useQuery(latestNotificationsQuery());
  const markRead = useMarkNotificationRead();
  const markAll = useMarkAllNotificationsRead();
  const unread = latest.data?.nb_unread ?? 0;
  const list = latest.data?.objects ?? [];

  useCloseOutside(wrapper, open, () => setOpen(false), () => panel.current?.focus());

  function onPanelKey(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key !== "Escape") return;
    event.stopPropagation();
    setOpen(false);
    trigger.current?.focus();
  }

  function follow(n: NotificationResponse) {
    if (!n.read) markRead.mutate(n.id);
    setOpen(false);
    const href = notificationHref(n);
    // A link share opens its public page, outside the app's routes.
    if (href.startsWith("/s/")) window.location.assign(href);
    else router.push(href);
  }

  return (
    <div className={styles.wrapper} ref={wrapper}>
      <button
        ref={trigger}
        type="button"
        className={styles.bell}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        aria-label={unread > 0 ? t("notifications.bellUnread", { count: unread }) : t("notifications.bell")}
        onClick={() => setOpen((o) => !o)}
      >
        <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
          <path d="M6 8a6 6 0 1 1 12 0c0 7 3 8 3 8H3s3-1 3-8M10 20a2 2 0 0 0 4 0" />
        </svg>
        {unread > 0 && (
          <span className={styles.count} aria-hidden="true">
            {unread > 99 ? "99+" : unread}
          </span>
        )}
      </button>
      {open && (
        <div ref={panel} id={panelId} role="dialog" aria-label={t("notifications.title")} className={styles.panel} tabIndex={-1} onKeyDown={onPanelKey}>
          <div className={styles.head}>
            <h2 className={styles.title}>{t("notifications.title")}</h2>
            <Button variant="ghost" size="small" disabled={unread === 0 || markAll.isPending} onClick={() => markAll.mutate()}>
              {t("notifications.markAllRead")}
            </Button>
          </div>
          {list.length === 0 ? (
            <p className={styles.empty}>{latest.isPending ? t("common.loading") : t("notifications.empty")}</p>
          ) : (
            <ul className={styles.list}>
              {list.map((n) => {
                const text = t(SAYS[n.type], { actor: n.actor?.name ?? t("notifications.someone"), name: n.object.name });
                return (
                  <li key={n.id}>
                    {/* Unread is shown by a dot; its name says it to screen readers. */}
                    <button type="button" className={styles.item} data-unread={!n.read || undefined} aria-label={n.read ? undefined : `${text}, ${t("notifications.unread")}`} onClick={() => follow(n)}>
                      <span className={styles.text}>{text}</span>
                      <span className={styles.date}>
                        <LocalTime iso={n.date} />
                      </span>
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
