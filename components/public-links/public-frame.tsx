"use client";

import type { ReactNode } from "react";
import { Brand, brandStyle } from "@/components/brand";
import { useBranding } from "@/lib/queries/public-config";
import styles from "./public.module.css";

/** The frame of the pages link recipients open: the platform's brand (logo, colour), then one card. */
export function PublicFrame({ platformName, children, wide = false }: { platformName: string; children: ReactNode; wide?: boolean }) {
  const branding = useBranding();
  return (
    <div className={styles.page} style={brandStyle(branding?.color)}>
      <header className={styles.header}>
        <Brand name={platformName} logoUrl={branding?.logoUrl} />
      </header>
      <main className={`${styles.card} ${wide ? styles.wide : ""}`}>{children}</main>
    </div>
  );
}
