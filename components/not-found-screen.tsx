"use client";

import Link from "next/link";
import { useT } from "@/lib/i18n/provider";
import { StatusScreen } from "./status-screen";

export function NotFoundScreen() {
  const t = useT();
  return <StatusScreen title={t("notFound.title")} text={t("notFound.text")} action={<Link href="/">{t("notFound.home")}</Link>} />;
}
