import type { Metadata } from "next";
import { OptionsScreen } from "@/components/admin/people/options-screen";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("adminPeople.options.title") };
}

type Props = { searchParams: Promise<{ target?: string | string[] }> };

export default async function AdminOptionsPage({ searchParams }: Props) {
  const { target } = await searchParams;
  const id = typeof target === "string" && /^\d{1,10}$/.test(target) ? target : null;
  return <OptionsScreen target={id} />;
}
