"use client";

import { useQuery } from "@tanstack/react-query";
import { Card } from "@/components/ui/card";
import { FormStatus } from "@/components/ui/form-status";
import { formatDate } from "@/components/file-browser/format";
import { htmlLang } from "@/lib/i18n/languages";
import { useLanguage, useT } from "@/lib/i18n/provider";
import { signingSealQuery } from "@/lib/queries/admin-config";
import styles from "./admin.module.css";
import { describeAdminError } from "./describe-error";

/**
 * Which certificate seals signed PDFs (issue 31): its subject, issuer and end, the PAdES level
 * the seals reach, a warning 30 days before the end, and how to seal with a certificate from a
 * trusted provider so that readers show a trusted seal (SIGNING_P12, SIGNING_TSA_URL).
 */
export function SigningSealCard() {
  const t = useT();
  const locale = htmlLang(useLanguage());
  const seal = useQuery(signingSealQuery());
  return (
    <div data-testid="signing-seal-card">
      <Card title={t("admin.seal.title")} description={t("admin.seal.description")}>
        {seal.isPending && <p className={styles.muted}>{t("common.loading")}</p>}
        {seal.isError && <FormStatus status={{ tone: "error", message: describeAdminError(seal.error, t) }} />}
        {seal.data && (
          <>
            {seal.data.warning && (
              <FormStatus banner status={{ tone: "error", message: t(`admin.seal.${seal.data.warning}`, { days: seal.data.certificate.days_left, date: formatDate(seal.data.certificate.valid_to, locale) }) }} />
            )}
            <dl className={styles.sources}>
              <Row label={t("admin.seal.subject")} value={seal.data.certificate.subject} />
              <Row label={t("admin.seal.issuer")} value={seal.data.certificate.issuer} />
              <Row label={t("admin.seal.validTo")} value={formatDate(seal.data.certificate.valid_to, locale)} />
              <Row label={t("admin.seal.source")} value={t(seal.data.source === "p12" ? "admin.seal.sourceP12" : "admin.seal.sourcePlatform")} />
              <Row label={t("admin.seal.level")} value={`PAdES ${seal.data.level}`} />
              <Row label={t("admin.seal.tsa")} value={seal.data.timestamp_authority ?? t("admin.seal.noTsa")} />
            </dl>
            <p className={styles.muted}>{t(seal.data.certificate.platform_ca ? "admin.seal.platformHint" : "admin.seal.ownHint")}</p>
            <p className={styles.muted}>{t("admin.seal.howTo")}</p>
            <p>
              <a href="/api/signatures/certificate" download>
                {t("admin.seal.downloadCa")}
              </a>
            </p>
          </>
        )}
      </Card>
    </div>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className={styles.sourceRow}>
      <dt>{label}</dt>
      <dd>{value}</dd>
      <dd />
    </div>
  );
}
