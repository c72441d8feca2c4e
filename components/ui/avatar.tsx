import styles from "./avatar.module.css";

/** A round picture, or the initials of the name when there is none. */
export function Avatar({ name, src, size = 32, alt = "" }: { name: string; src?: string | null; size?: number; alt?: string }) {
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join("");
  return (
    <span className={styles.avatar} style={{ width: size, height: size, fontSize: Math.round(size * 0.4) }} aria-hidden={alt ? undefined : true}>
      {/* eslint-disable-next-line @next/next/no-img-element -- an object URL of the user's own picture, not an optimisable asset */}
      {src ? <img src={src} alt={alt} /> : initials || "?"}
    </span>
  );
}
