"use client";

import Link from "next/link";
import { PageHeader } from "@/components/page-header";
import { useT } from "@/lib/i18n/provider";

/** What a signed-in user who is neither administrator nor manager sees at /admin. */
export function AdminForbidden() {
  const t = useT();
  return (
    <div role="alert">
      <PageHeader title={t("admin.forbiddenTitle")} subtitle={t("admin.forbiddenText")} />
      <Link href="/">{t("notFound.home")}</Link>
    </div>
  );
}
