import type { Metadata } from "next";
import { MailScreen } from "@/components/admin/mail-screen";
import { AdministratorsOnly } from "../administrators-only";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("admin.mail.title") };
}

export default function AdminMailPage() {
  return (
    <AdministratorsOnly>
      <MailScreen />
    </AdministratorsOnly>
  );
}
