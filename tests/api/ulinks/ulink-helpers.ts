import { eq } from "drizzle-orm";
import { expect } from "vitest";
import * as keyRoute from "@/app/api/ulink/key/[key]/route";
import * as createRoute from "@/app/api/ulink/route";
import { getDb } from "@/db";
import { ulinks } from "@/db/schema";
import { ulinkResponse } from "@/lib/contracts/ulinks";
import type { TestUser } from "../../helpers/factories";
import { call } from "../../helpers/http";

export const post = (token: string | null, body: unknown) => call(createRoute.POST, { method: "POST", token, body });
export const byKey = (key: string) => call(keyRoute.GET, { method: "GET", params: { key } });

export async function createLink(user: TestUser, body: Record<string, unknown>) {
  const res = await post(user.token, body);
  expect(res.status, res.text).toBe(201);
  return ulinkResponse.parse(res.body);
}

export async function storedLink(id: number) {
  const db = await getDb();
  return (await db.select().from(ulinks).where(eq(ulinks.id, id)))[0];
}

/** Makes a link expired as time would (the API refuses past dates). */
export async function expire(id: number) {
  const db = await getDb();
  await db.update(ulinks).set({ expirationDate: new Date(Date.now() - 60_000) }).where(eq(ulinks.id, id));
}

