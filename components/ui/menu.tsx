"use client";

import Link from "next/link";
import { DropdownMenu } from "radix-ui";
import type { ReactElement } from "react";
import styles from "./menu.module.css";

export type MenuItem = { label: string; onSelect?: () => void; href?: string; danger?: boolean; disabled?: boolean; separatorBefore?: boolean };

/**
 * A menu button (WAI-ARIA menu pattern) for row actions, "More" and account menus. Radix's
 * DropdownMenu owns the behaviour: opening by click, Enter, Space or ArrowDown, roving focus and
 * typeahead, Escape and outside clicks, focus back on the trigger, placement that stays on screen
 * (in a portal, so a table's scrolling frame does not clip it). `trigger` is the button, styled by
 * its screen; the menu's look is the design system's.
 */
export function Menu({ trigger, label, items, align = "end" }: { trigger: ReactElement; label: string; items: MenuItem[]; align?: "start" | "end" }) {
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>{trigger}</DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className={styles.menu} aria-label={label} align={align} sideOffset={4} collisionPadding={8}>
          {items.map((item) => [
            item.separatorBefore && <DropdownMenu.Separator key={`${item.label}-separator`} className={styles.separator} />,
            <MenuEntry key={item.label} item={item} />,
          ])}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

function MenuEntry({ item }: { item: MenuItem }) {
  const className = item.danger ? `${styles.item} ${styles.danger}` : styles.item;
  if (item.href)
    return (
      <DropdownMenu.Item asChild disabled={item.disabled} className={className}>
        <Link href={item.href}>{item.label}</Link>
      </DropdownMenu.Item>
    );
  return (
    <DropdownMenu.Item disabled={item.disabled} className={className} onSelect={item.onSelect}>
      {item.label}
    </DropdownMenu.Item>
  );
}
