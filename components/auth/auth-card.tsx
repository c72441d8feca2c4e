"use client";

import type { ReactNode } from "react";
import { useBranding } from "@/lib/queries/public-config";
import { Brand, brandStyle } from "../brand";
import styles from "./auth-card.module.css";

/** The frame of the signed-out screens: the platform's brand (logo, colour), a titled card, an optional footer link. */
export function AuthCard({ platformName, title, intro, children, footer }: { platformName: string; title: string; intro?: string; children: ReactNode; footer?: ReactNode }) {
  const branding = useBranding();
  return (
    <main className={styles.page} style={brandStyle(branding?.color)}>
      <Brand name={platformName} size={36} logoUrl={branding?.logoUrl} />
      <div className={styles.card}>
        <div className={styles.heading}>
          <h1>{title}</h1>
          {intro && <p className={styles.intro}>{intro}</p>}
        </div>
        {children}
      </div>
      {footer && <div className={styles.footer}>{footer}</div>}
    </main>
  );
}

export const authStyles = styles;
