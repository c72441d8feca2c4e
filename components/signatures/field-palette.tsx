"use client";

import type { PointerEvent as ReactPointerEvent } from "react";
import type { FieldType } from "@/lib/contracts/signatures";
import { useT } from "@/lib/i18n/provider";
import { FIELD_LABELS, PALETTE } from "./field-kinds";
import styles from "./signatures.module.css";

/** The field types to drag onto a page, or to add in its middle with a click or the keyboard. */
export function FieldPalette({
  colour,
  disabled,
  onDragStart,
  onAdd,
}: {
  colour: string | undefined;
  disabled: boolean;
  onDragStart: (type: FieldType, event: ReactPointerEvent<HTMLButtonElement>) => void;
  onAdd: (type: FieldType) => void;
}) {
  const t = useT();
  return (
    <div className={styles.palette} role="group" aria-label={t("signatures.fields.palette")}>
      <p className={styles.hint}>{t("signatures.fields.paletteHint")}</p>
      {PALETTE.map((type) => (
        <button
          key={type}
          type="button"
          className={styles.paletteItem}
          disabled={disabled}
          style={colour ? { borderColor: colour } : undefined}
          onPointerDown={(e) => onDragStart(type, e)}
          onClick={() => onAdd(type)}
          data-testid={`palette-${type}`}
          aria-label={t("signatures.fields.addType", { type: t(FIELD_LABELS[type]) })}
        >
          <FieldIcon type={type} />
          {t(FIELD_LABELS[type])}
        </button>
      ))}
    </div>
  );
}

const ICONS: Record<FieldType, string> = {
  signature: "M3 17c3-4 5-9 7-9s-1 9 1 9 3-5 5-5 1 4 3 4h2M3 21h18",
  initials: "M5 18V6M5 6h5M9 18l3-12 3 12M10 14h4M19 6v12",
  full_name: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21c1-4 4-6 8-6s7 2 8 6",
  email: "M3 6h18v12H3zM3 6l9 7 9-7",
  date_signed: "M4 6h16v14H4zM4 10h16M8 3v5M16 3v5",
  text: "M5 6h14M12 6v13M9 19h6",
  number: "M9 4L7 20M17 4l-2 16M4 9h16M3 15h16",
  checkbox: "M4 4h16v16H4zM8 12l3 3 5-6",
  radio: "M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z",
  dropdown: "M4 6h16v12H4zM14 11l2 2 2-2",
};

function FieldIcon({ type }: { type: FieldType }) {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d={ICONS[type]} />
    </svg>
  );
}
