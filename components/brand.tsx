import type { CSSProperties } from "react";
import { darken, lighten, readableAccent } from "@/lib/contracts/config";
import styles from "./brand.module.css";

/**
 * The platform's mark and name. The mark is the platform's logo when it has one (`logoUrl`),
 * else a safe's door; `logoUrl` undefined means the branding is still loading: an empty box of
 * the same size holds the place, so the default mark never flashes before a logo.
 */
export function Brand({ name, size = 28, logoUrl = null }: { name: string; size?: number; logoUrl?: string | null | undefined }) {
  return (
    <span className={styles.brand}>
      {logoUrl ? (
        // A plain <img>: the logo is served by our own API, already a small PNG (no optimiser needed).
        // eslint-disable-next-line @next/next/no-img-element
        <img className={styles.logo} src={logoUrl} alt="" height={size} style={{ height: size }} />
      ) : logoUrl === undefined ? (
        <span className={styles.mark} style={{ width: size, height: size }} aria-hidden="true" />
      ) : (
        <svg className={styles.mark} width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
          <rect x="1" y="1" width="30" height="30" rx="8" fill="currentColor" />
          <rect x="7" y="7" width="18" height="18" rx="3" fill="none" stroke="#fff" strokeWidth="2" />
          <circle cx="16" cy="16" r="3.6" fill="none" stroke="#fff" strokeWidth="2" />
          <path d="M19.6 16H22M7 11H5M7 21H5" stroke="#fff" strokeWidth="2" strokeLinecap="round" />
        </svg>
      )}
      <span>{name}</span>
    </span>
  );
}

/**
 * The CSS custom properties that apply a brand colour to everything below an element (a `style`
 * attribute: allowed by the pages' CSP, unlike an inline <style> or <script>). The mark takes the
 * colour as chosen; buttons and links a shade dark enough for white text (readableAccent).
 */
export function brandStyle(color: string | undefined): CSSProperties | undefined {
  if (!color || !/^#[0-9a-f]{6}$/i.test(color)) return undefined;
  const accent = readableAccent(color);
  return {
    "--brand": color,
    "--accent": accent,
    "--accent-hover": darken(accent, 0.15),
    "--accent-soft": lighten(color, 0.9),
    "--focus-ring": `0 0 0 3px ${accent}59`,
  } as CSSProperties;
}
