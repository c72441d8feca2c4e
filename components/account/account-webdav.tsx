"use client";

import { useSyncExternalStore } from "react";
import { CopyField } from "@/components/sharing/copy-field";
import { Card } from "@/components/ui/card";
import { useT } from "@/lib/i18n/provider";

const noChanges = () => () => {};

/** The WebDAV address (server.ts serves /dav/ on this origin), to paste into a file manager or rclone. */
export function AccountWebdav() {
  const t = useT();
  // The origin is the browser's own; the server's HTML has none (no hydration mismatch).
  const address = useSyncExternalStore(noChanges, () => `${window.location.origin}/dav/`, () => "");
  return (
    <Card title={t("accountSecurity.webdav.title")} description={t("accountSecurity.webdav.help")}>
      {address && <CopyField label={t("accountSecurity.webdav.address")} value={address} />}
    </Card>
  );
}
