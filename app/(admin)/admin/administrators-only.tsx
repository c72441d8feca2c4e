import type { ReactNode } from "react";
import { getCurrentUser } from "@/lib/server/auth/current-user";
import { isAdmin } from "@/lib/server/context";
import { AdminForbidden } from "@/components/admin/admin-forbidden";

/** Screens for administrators alone (managers reach the console for their groups' people only). */
export async function AdministratorsOnly({ children }: { children: ReactNode }) {
  const current = await getCurrentUser();
  return current && isAdmin(current.user) ? <>{children}</> : <AdminForbidden />;
}
