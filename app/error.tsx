"use client";

import { StatusScreen } from "@/components/status-screen";
import { Button } from "@/components/ui/button";
import { useT } from "@/lib/i18n/provider";

/** An unexpected failure while rendering a page; the details stay in the server log. */
export default function ErrorPage({ reset }: { error: Error; reset: () => void }) {
  const t = useT();
  return <StatusScreen title={t("error.generic")} action={<Button onClick={reset}>{t("error.retry")}</Button>} />;
}
