import type { Metadata } from "next";
import { WorkflowsScreen } from "@/components/workflows/workflows-screen";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("workflow.page.title") };
}

/** Validations: documents I am asked to validate (decided here) and those I sent for validation. */
export default function WorkflowsPage() {
  return <WorkflowsScreen />;
}
