"use client";

import { useT } from "@/lib/i18n/provider";
import { signingDocumentUrl, type PublicSigningResponse, type SignatureCapture, type SignatureFieldResponse } from "@/lib/queries/signatures";
import { fieldBox, PdfPage, useAvailableWidth, usePdfDocument } from "./pdf-page";
import { FieldControl, type Values } from "./sign-field-control";
import styles from "./signatures.module.css";

type SigningDocument = PublicSigningResponse["documents"][number];

/** The widest a page is drawn, in CSS pixels. */
const MAX_PAGE_WIDTH = 860;

type DocumentProps = {
  token: string;
  document: SigningDocument;
  initials: string;
  values: Values;
  signature: SignatureCapture | null;
  current: number | null;
  invalid: Set<number>;
  onValue: (field: SignatureFieldResponse, value: string | boolean) => void;
  onSignatureField: (field: SignatureFieldResponse) => void;
  onFocusField: (id: number) => void;
};

/** One document, every page, with this signer's fields over them as real controls. */
export function SigningDocumentView({ token, document, initials, values, signature, current, invalid, onValue, onSignatureField, onFocusField }: DocumentProps) {
  const t = useT();
  const { doc, failed } = usePdfDocument(signingDocumentUrl(token, document.id));
  const [measure, available] = useAvailableWidth<HTMLDivElement>();
  return (
    <section className={styles.signDocument} aria-label={document.name} ref={measure}>
      <div className={styles.signDocumentHead}>
        <h2 className={styles.smallHeading}>{document.name}</h2>
        <a href={signingDocumentUrl(token, document.id)} download={document.name} className={styles.smallLink}>
          {t("sign.download")}
        </a>
      </div>
      {failed && <p role="alert">{t("preview.failed")}</p>}
      {available > 0 &&
        document.pages.map((size, index) => {
          const number = index + 1;
          const scale = Math.min(available, MAX_PAGE_WIDTH) / size.width;
          return (
            <PdfPage key={number} doc={doc} number={number} size={size} scale={scale} label={t("preview.pageLabel", { name: document.name, page: number })}>
              {document.fields
                .filter((f) => f.page === number)
                .map((field) => (
                  <FieldControl
                    key={field.id}
                    field={field}
                    box={fieldBox(field, size.height, scale)}
                    initials={initials}
                    value={values[field.id]}
                    signature={signature}
                    isCurrent={current === field.id}
                    isInvalid={invalid.has(field.id)}
                    onValue={(value) => onValue(field, value)}
                    onSignature={() => onSignatureField(field)}
                    onFocus={() => onFocusField(field.id)}
                  />
                ))}
            </PdfPage>
          );
        })}
    </section>
  );
}
