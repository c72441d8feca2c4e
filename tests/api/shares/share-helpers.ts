import { expect } from "vitest";
import * as createRoute from "@/app/api/share/route";
import * as passcheckRoute from "@/app/api/share/key/[key]/passcheck/route";
import type { TestUser } from "../../helpers/factories";
import { call } from "../../helpers/http";

export type ShareJson = { id: number; key: string; url: string; flags: number; roots: { id: number; entity_type: number; name: string; guid?: string }[] } & Record<string, unknown>;

/** POST /share as `user`; fails the test unless it is created. */
export async function createShare(user: TestUser, body: Record<string, unknown>): Promise<ShareJson> {
  const res = await call(createRoute.POST, { method: "POST", token: user.token, body });
  expect(res.status, res.text).toBe(201);
  return res.body as ShareJson;
}

/** An access token for a password-protected share. */
export async function unlock(key: string, password: string): Promise<string> {
  const res = await call(passcheckRoute.POST, { method: "POST", params: { key }, body: { password } });
  expect(res.status, res.text).toBe(200);
  return res.body.access_token as string;
}

/** The header that presents a link's access token (none without one). */
export const bearer = (token?: string): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});
