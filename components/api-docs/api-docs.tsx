"use client";

import { useEffect, useRef, useState } from "react";
import "swagger-ui-dist/swagger-ui.css";
import { useT } from "@/lib/i18n/provider";
import styles from "./api-docs.module.css";

/**
 * Swagger UI on GET /api/openapi.json. "Try it out" calls the API from this page with the token
 * given under Authorize (or the browser's session, as our own pages do).
 */
export function ApiDocs() {
  const t = useT();
  const container = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let cancelled = false;
    void import("swagger-ui-dist/swagger-ui-bundle.js").then(({ default: SwaggerUIBundle }) => {
      if (cancelled || !container.current) return;
      SwaggerUIBundle({ domNode: container.current, url: "/api/openapi.json", deepLinking: true, persistAuthorization: true, tryItOutEnabled: true, docExpansion: "none", filter: true });
      setReady(true);
    });
    return () => {
      cancelled = true;
    };
  }, []);
  return (
    <div className={styles.docs}>
      {!ready && <p role="status">{t("apiDocs.loading")}</p>}
      <div ref={container} />
    </div>
  );
}
