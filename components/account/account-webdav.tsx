"use client";

import { useSyncExternalStore } from "react";
import { CopyField } from "@/components/sharing/copy-field";
import { Card } from "@/components/ui/card";
import { useT } from "@/lib/i18n/provider";
import styles from "./account-applications.module.css";

const noChanges = () => () => {};

/**
 * The WebDAV address (server.ts serves /dav/ on this origin), to paste into a file manager, and
 * how rclone, macOS Finder and Windows connect to it (issue 29, item 9).
 */
export function AccountWebdav({ login }: { login: string }) {
  const t = useT();
  // The origin is the browser's own; the server's HTML has none (no hydration mismatch).
  const address = useSyncExternalStore(noChanges, () => `${window.location.origin}/dav/`, () => "");
  const quotedLogin = `'${login.replace(/'/g, `'\\''`)}'`;
  const rclone = `rclone config create coffre webdav url=${address} vendor=other user=${quotedLogin} pass="$(rclone obscure 'APP-PASSWORD')"`;
  return (
    <Card title={t("accountSecurity.webdav.title")} description={t("accountSecurity.webdav.help")}>
      {address && (
        <div className={styles.what}>
          <CopyField label={t("accountSecurity.webdav.address")} value={address} />
          <p className={styles.dates}>{t("accountSecurity.webdav.rclone")}</p>
          <CopyField label={t("accountSecurity.webdav.rcloneLabel")} value={rclone} />
          <p className={styles.dates}>{t("accountSecurity.webdav.finder")}</p>
          <p className={styles.dates}>{t("accountSecurity.webdav.windows")}</p>
        </div>
      )}
    </Card>
  );
}
