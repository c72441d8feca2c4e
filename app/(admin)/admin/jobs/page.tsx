import type { Metadata } from "next";
import { JobsScreen } from "@/components/admin/jobs-screen";
import { AdministratorsOnly } from "../administrators-only";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("admin.jobs.title") };
}

export default function AdminJobsPage() {
  return (
    <AdministratorsOnly>
      <JobsScreen />
    </AdministratorsOnly>
  );
}
