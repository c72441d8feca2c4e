import type { Metadata } from "next";
import { LogsScreen } from "@/components/admin/logs-screen";
import { AdministratorsOnly } from "../administrators-only";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";
import type { LogFilters } from "@/lib/queries/admin-logs";

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("admin.logs.title") };
}

type Params = { object_type?: string | string[]; object_id?: string | string[]; user_id?: string | string[]; user?: string | string[] };
type Props = { searchParams: Promise<Params> };

/** Other screens link here already filtered: ?object_type=&object_id= for an object, ?user_id=&user= for a person. */
function initialFilters(params: Params): LogFilters {
  const one = (value: string | string[] | undefined, pattern: RegExp) => (typeof value === "string" && pattern.test(value) ? value : "");
  const userId = one(params.user_id, /^\d{1,10}$/);
  // Spelled out: values of a "use client" module are references on the server, not the values.
  return {
    type: "",
    statut: "",
    period: "all",
    date_start: "",
    date_end: "",
    object_type: one(params.object_type, /^[a-z0-9_]{1,64}$/),
    object_id: one(params.object_id, /^[\w.:-]{1,255}$/),
    people: userId ? [{ id: userId, name: one(params.user, /^.{1,255}$/) || `#${userId}` }] : [],
  };
}

export default async function AdminLogsPage({ searchParams }: Props) {
  const initial = initialFilters(await searchParams);
  return (
    <AdministratorsOnly>
      <LogsScreen initial={initial} />
    </AdministratorsOnly>
  );
}
