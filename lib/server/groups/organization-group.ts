import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { groupMembers, groups } from "@/db/schema";

/** Joins a user to the group named after their organization, creating it on first use. */
export async function joinOrganizationGroup(db: DbOrTx, userId: number, organization: string) {
  const name = organization.trim();
  if (!name) return;
  await db.insert(groups).values({ login: name }).onConflictDoNothing();
  const [group] = await db.select({ id: groups.id }).from(groups).where(sql`lower(${groups.login}) = lower(${name})`);
  await db.insert(groupMembers).values({ groupId: group.id, userId }).onConflictDoNothing();
}
