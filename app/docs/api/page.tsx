import type { Metadata } from "next";
import { ApiDocs } from "@/components/api-docs/api-docs";
import { ApiGuide } from "@/components/api-docs/api-guide";
import styles from "@/components/api-docs/api-docs.module.css";
import { getServerT } from "@/lib/i18n/server";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getServerT())("meta.apiDocs") };
}

/** /docs/api: a short guide, then the API's reference for integrators rendered from GET /api/openapi.json, grouped by resource (no account needed to read it). */
export default async function ApiDocsPage() {
  const t = await getServerT();
  return (
    <main>
      <header className={styles.header}>
        <h1>{t("apiDocs.title")}</h1>
        <p>{t("apiDocs.intro")}</p>
        <p className={styles.links}>
          <a href="/api/openapi.json">{t("apiDocs.document")}</a>
        </p>
      </header>
      <ApiGuide t={t} />
      <ApiDocs />
    </main>
  );
}
