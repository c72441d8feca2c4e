import { eq, inArray } from "drizzle-orm";
import { expect } from "vitest";
import * as authRoute from "@/app/api/auth/route";
import * as providerRoute from "@/app/api/identity/provider/route";
import { getDb } from "@/db";
import { identityProviders } from "@/db/schema";
import { identityProviderResponse } from "@/lib/contracts/identity-providers";
import { unique } from "../../helpers/factories";
import { call } from "../../helpers/http";
import type { Slapd } from "../../helpers/slapd";

/** A whole ldap configuration for a test directory (nested groups on). */
export function ldapBody(d: Slapd, overrides: Record<string, unknown> = {}) {
  return {
    type: "ldap",
    name: unique("Directory "),
    servers: [d.url],
    baseDN: d.baseDN,
    username: d.serviceDN,
    password: d.servicePassword,
    recursive: true,
    ...overrides,
  };
}

/** Created providers are deleted by `removeProviders` (afterAll): test files share one database,
 * and a provider left enabled on a stopped directory would answer 503 to other files' unknown logins. */
const created: number[] = [];

export async function createProvider(token: string, body: Record<string, unknown>) {
  const res = await call(providerRoute.POST, { method: "POST", token, body });
  expect(res.status, res.text).toBe(201);
  const provider = identityProviderResponse.parse(res.body);
  created.push(Number(provider.id));
  return provider;
}

export const trackProvider = (id: string | number) => created.push(Number(id));

export async function removeProviders() {
  if (created.length === 0) return;
  const db = await getDb();
  await db.delete(identityProviders).where(inArray(identityProviders.id, created.splice(0)));
}

export async function setProviderEnabled(id: string | number, enable: boolean) {
  const db = await getDb();
  await db.update(identityProviders).set({ enable }).where(eq(identityProviders.id, Number(id)));
}

const randomIp = () => `10.88.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

/** POST /auth from an address of its own (failures are throttled per login and address). */
export const signIn = (user: string, password: string) =>
  call(authRoute.POST, { method: "POST", body: { user, password }, headers: { "x-forwarded-for": randomIp() } });
