import type { Metadata } from "next";
import { TrashScreen } from "@/components/trash/trash-screen";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("meta.trash") };
}

export default function TrashPage() {
  return <TrashScreen />;
}
