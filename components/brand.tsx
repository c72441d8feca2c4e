import styles from "./brand.module.css";

/** The platform's mark (a safe's door) and name. */
export function Brand({ name, size = 28 }: { name: string; size?: number }) {
  return (
    <span className={styles.brand}>
      <svg className={styles.mark} width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
        <rect x="1" y="1" width="30" height="30" rx="8" fill="currentColor" />
        <rect x="7" y="7" width="18" height="18" rx="3" fill="none" stroke="#fff" strokeWidth="2" />
        <circle cx="16" cy="16" r="3.6" fill="none" stroke="#fff" strokeWidth="2" />
        <path d="M19.6 16H22M7 11H5M7 21H5" stroke="#fff" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <span>{name}</span>
    </span>
  );
}
