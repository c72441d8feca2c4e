import "server-only";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { groupMembers, groups } from "@/db/schema";
import { AppError } from "../errors";

/** Joins a user to the group named after their organization, creating it on first use. */
export async function joinOrganizationGroup(db: DbOrTx, userId: number, organization: string) {
  const name = organization.trim();
  if (!name) return;
  await db.insert(groups).values({ login: name }).onConflictDoNothing();
  const [group] = await db.select({ id: groups.id }).from(groups).where(sql`lower(${groups.login}) = lower(${name})`);
  await db.insert(groupMembers).values({ groupId: group.id, userId }).onConflictDoNothing();
}

/**
 * A manager who sets an organization must not thereby join a user to an existing group they do
 * not manage (that group's rights would come with it). A new organization group is harmless.
 */
export async function assertManagerMayJoinOrganization(db: DbOrTx, managedGroupIds: number[], organization: string) {
  const name = organization.trim();
  if (!name) return;
  const [group] = await db.select({ id: groups.id }).from(groups).where(sql`lower(${groups.login}) = lower(${name})`).limit(1);
  if (group && !managedGroupIds.includes(group.id)) {
    throw new AppError("forbidden", `The organization "${name}" would join the group of that name, which you do not manage`);
  }
}
