import { and, eq, isNull, ne, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { groupMembers, groups, platformConfig, users } from "@/db/schema";
import { forgetCachedConfig } from "@/lib/server/config/platform-config";
import { deleteUser } from "@/lib/server/users/delete-user";
import { updateUser } from "@/lib/server/users/update-user";
import { createAdmin, createTestGroup, createTestUser, unique } from "../../helpers/factories";
import { createManagedTeam, inRolledBackTransaction, openDatabase, serviceCtx } from "./fixtures";

// These rules depend on the whole platform (how many administrators are left, a platform option),
// so each test stages that state in a transaction that is rolled back, and calls the service on it.

const LAST_ADMIN = { code: "forbidden", message: expect.stringMatching(/last active administrator/) };

beforeAll(openDatabase);

describe("the last active administrator", () => {
  it("cannot lose the role, be deactivated, expire or be deleted", async () => {
    const last = await createAdmin();
    const other = await createAdmin();
    await inRolledBackTransaction(async (tx) => {
      await tx.update(users).set({ active: false }).where(and(eq(users.role, 3), ne(users.id, last.id), isNull(users.deletedAt)));
      const ctx = serviceCtx(tx, last);
      await expect(updateUser(ctx, last.id, { role: 2 }, { alert: false })).rejects.toMatchObject(LAST_ADMIN);
      await expect(updateUser(ctx, last.id, { active: false }, { alert: false })).rejects.toMatchObject(LAST_ADMIN);
      await expect(updateUser(ctx, last.id, { expire: new Date(Date.now() - 60_000) }, { alert: false })).rejects.toMatchObject(LAST_ADMIN);
      // The acting administrator was active when the request began; the check reads the database.
      await expect(deleteUser(serviceCtx(tx, other), last.id)).rejects.toMatchObject(LAST_ADMIN);
      const [row] = await tx.select().from(users).where(eq(users.id, last.id));
      expect(row).toMatchObject({ role: 3, active: true, deletedAt: null, expire: null });
      // Other changes to the last administrator still go through.
      const renamed = await updateUser(ctx, last.id, { firstname: "Still here" }, { alert: false });
      expect(renamed).toMatchObject({ firstname: "Still here", role: 3, active: true });
    });
  });

  it("can be demoted once another administrator is active", async () => {
    const first = await createAdmin();
    const second = await createAdmin();
    await inRolledBackTransaction(async (tx) => {
      await tx.update(users).set({ active: false }).where(and(eq(users.role, 3), ne(users.id, first.id), ne(users.id, second.id), isNull(users.deletedAt)));
      const demoted = await updateUser(serviceCtx(tx, second), first.id, { role: 2 }, { alert: false });
      expect(demoted.role).toBe(2);
      await expect(updateUser(serviceCtx(tx, second), second.id, { role: 2 }, { alert: false })).rejects.toMatchObject(LAST_ADMIN);
    });
  });
});

describe("organization groups (platform option organization_groups)", () => {
  it("joins a user whose organization changes to the group of that name, created on first use", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    const existing = await createTestGroup({ login: unique("Org ") });
    const fresh = unique("NewOrg ");
    try {
      await inRolledBackTransaction(async (tx) => {
        await tx.insert(platformConfig).values({ key: "organization_groups", value: true }).onConflictDoUpdate({ target: platformConfig.key, set: { value: true } });
        forgetCachedConfig();
        const ctx = serviceCtx(tx, admin);
        const first = await updateUser(ctx, user.id, { organization: existing.login.toUpperCase() }, { alert: false });
        expect(first.groups).toEqual([{ id: String(existing.id), login: existing.login }]);
        const second = await updateUser(ctx, user.id, { organization: fresh }, { alert: false });
        const [created] = await tx.select().from(groups).where(sql`lower(${groups.login}) = lower(${fresh})`);
        expect(created).toBeDefined();
        // The earlier organization group is kept: an administrator may have joined it on purpose.
        expect(second.groups.map((g) => g.id).sort()).toEqual([String(existing.id), String(created.id)].sort());
      });
    } finally {
      forgetCachedConfig();
    }
  });

  it("refuses a manager an organization that names a group they do not manage", async () => {
    const { manager, member, group } = await createManagedTeam();
    const foreign = await createTestGroup({ login: unique("Board ") });
    try {
      await inRolledBackTransaction(async (tx) => {
        await tx.insert(platformConfig).values({ key: "organization_groups", value: true }).onConflictDoUpdate({ target: platformConfig.key, set: { value: true } });
        forgetCachedConfig();
        const ctx = serviceCtx(tx, manager);
        await expect(updateUser(ctx, member.id, { organization: foreign.login }, { alert: false })).rejects.toMatchObject({ code: "forbidden" });
        const rows = await tx.select().from(groupMembers).where(eq(groupMembers.userId, member.id));
        expect(rows.map((r) => r.groupId)).toEqual([group.id]);
        // Naming a group they manage, or a new one, is fine.
        const ok = await updateUser(ctx, member.id, { organization: group.login }, { alert: false });
        expect(ok.organization).toBe(group.login);
      });
    } finally {
      forgetCachedConfig();
    }
  });

  it("leaves memberships alone while the option is off", async () => {
    const admin = await createAdmin();
    const user = await createTestUser();
    const existing = await createTestGroup({ login: unique("Org ") });
    await inRolledBackTransaction(async (tx) => {
      await tx.delete(platformConfig).where(eq(platformConfig.key, "organization_groups"));
      forgetCachedConfig();
      const updated = await updateUser(serviceCtx(tx, admin), user.id, { organization: existing.login }, { alert: false });
      expect(updated.groups).toEqual([]);
    });
    forgetCachedConfig();
  });
});
