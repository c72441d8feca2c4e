"use client";

import { useEffect, useRef, type CSSProperties } from "react";
import { Button } from "@/components/ui/button";
import { useT } from "@/lib/i18n/provider";
import type { SignatureCapture, SignatureFieldResponse } from "@/lib/queries/signatures";
import { fieldLabel, FieldControl, isSignatureField, type Values } from "./sign-field-control";
import styles from "./signatures.module.css";

/** The control at full size in the step, not over the page: finger-sized, a signature taller. */
function stepBox(field: SignatureFieldResponse): CSSProperties {
  if (field.type === "checkbox") return { position: "static", width: 44, height: 44 };
  return { position: "static", width: "100%", minHeight: isSignatureField(field) ? 88 : field.type === "radio" ? undefined : 44 };
}

type Props = {
  fields: SignatureFieldResponse[];
  field: SignatureFieldResponse;
  values: Values;
  signature: SignatureCapture | null;
  initials: string;
  invalid: boolean;
  onValue: (value: string | boolean) => void;
  onSignature: () => void;
  /** The step's field becomes the current one once the signer touches it. */
  onFocus: () => void;
  onPrevious: () => void;
  onNext: () => void;
};

/**
 * On a phone the pages are drawn small, and their fields with them: the current field is also
 * shown here at full size, one at a time, with the previous and the next field (issue 31). Moving
 * to another field puts the focus on its control here (the page scrolls to where it lies).
 */
export function FieldStep({ fields, field, values, signature, initials, invalid, onValue, onSignature, onFocus, onPrevious, onNext }: Props) {
  const t = useT();
  const index = fields.indexOf(field);
  const box = useRef<HTMLDivElement>(null);
  const moved = useRef(false);
  useEffect(() => {
    // Not on the first render: the page opens without a keyboard popping up.
    if (moved.current) box.current?.querySelector<HTMLElement>("input, select, button, [tabindex]")?.focus({ preventScroll: true });
    moved.current = true;
  }, [field.id]);
  return (
    <section className={styles.fieldStep} aria-label={t("sign.step.title")} data-testid="field-step">
      <p className={styles.stepCount} aria-live="polite">
        {t("sign.step.count", { n: index + 1, total: fields.length })} · {fieldLabel(field, t)}
      </p>
      <div ref={box} className={styles.stepControl}>
        <FieldControl
          field={field}
          box={stepBox(field)}
          idPrefix="step-"
          initials={initials}
          value={values[field.id]}
          signature={signature}
          isCurrent={false}
          isInvalid={invalid}
          onValue={onValue}
          onSignature={onSignature}
          onFocus={onFocus}
        />
      </div>
      <div className={styles.stepNav}>
        <Button variant="secondary" onClick={onPrevious} disabled={index <= 0}>
          {t("sign.step.previous")}
        </Button>
        <Button variant="secondary" onClick={onNext} data-testid="step-next">
          {t("sign.nextField")}
        </Button>
      </div>
    </section>
  );
}
