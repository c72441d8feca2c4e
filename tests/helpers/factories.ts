import { randomBytes } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { getDb } from "@/db";
import { groupManagers, groupMembers, groups, logs, sessions, users, type User } from "@/db/schema";
import { hashPassword } from "@/lib/server/auth/passwords";
import { hashToken, newToken } from "@/lib/server/auth/tokens";
import { createPrivateSpace } from "@/lib/server/folders/create-private-space";

export const PASSWORD = "Corr3ct-horse";
let passwordHash: Promise<string> | undefined;

export const unique = (prefix = "u") => `${prefix}${randomBytes(5).toString("hex")}`;

export type TestUser = User & { token: string; password: string };

/** A fresh user (role 2 by default) with a private space and a live API token. */
export async function createTestUser(overrides: Partial<typeof users.$inferInsert> = {}): Promise<TestUser> {
  const db = await getDb();
  passwordHash ??= hashPassword(PASSWORD);
  const login = overrides.login ?? unique("user_");
  const [user] = await db
    .insert(users)
    .values({ login, email: `${login}@example.test`, firstname: "Test", lastname: login, role: 2, passwordHash: await passwordHash, ...overrides })
    .returning();
  if (user.role !== 1) user.privateRootId = await createPrivateSpace(db, user.id);
  return { ...user, token: await createToken(user.id), password: PASSWORD };
}

export const createAdmin = (o: Partial<typeof users.$inferInsert> = {}) => createTestUser({ role: 3, ...o });

export async function createToken(userId: number, options: { ageMinutes?: number; idleMinutes?: number } = {}) {
  const db = await getDb();
  const token = newToken();
  const now = Date.now();
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    userId,
    createdAt: new Date(now - (options.ageMinutes ?? 0) * 60_000),
    lastUsedAt: new Date(now - (options.idleMinutes ?? 0) * 60_000),
  });
  return token;
}

/** A token that session_limit has already expired. */
export const createExpiredToken = (userId: number) => createToken(userId, { ageMinutes: 60 * 24 * 400, idleMinutes: 60 * 24 * 400 });

export async function createTestGroup(options: { members?: number[]; managers?: number[]; login?: string } = {}) {
  const db = await getDb();
  const [group] = await db.insert(groups).values({ login: options.login ?? unique("group_") }).returning();
  for (const userId of options.members ?? []) await db.insert(groupMembers).values({ groupId: group.id, userId });
  for (const userId of options.managers ?? []) await db.insert(groupManagers).values({ groupId: group.id, userId });
  return group;
}

export async function reloadUser(id: number) {
  const db = await getDb();
  const [user] = await db.select().from(users).where(eq(users.id, id));
  return user;
}

/** The newest audit-log entry about an object (optionally of one type). */
export async function latestLog(objectType: string, objectId: number | string, type?: string) {
  const db = await getDb();
  const [log] = await db
    .select()
    .from(logs)
    .where(and(eq(logs.objectType, objectType), eq(logs.objectId, String(objectId)), type ? eq(logs.type, type) : undefined))
    .orderBy(desc(logs.id))
    .limit(1);
  return log;
}
