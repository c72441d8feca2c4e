import "server-only";
import { cookies, headers } from "next/headers";
import { cache } from "react";
import { getDb } from "@/db";
import type { User } from "@/db/schema";
import { AppError } from "../errors";
import { requestInfo } from "../http/request-info";
import { authenticateToken } from "./authenticate";
import { readWebSessionToken } from "./web-session";

export type CurrentUser = { user: User; sessionId: number };

/**
 * The signed-in user of a server component, or null. The same checks as the API apply
 * (sessions row present, session_limit, session_idle, account active, connection options), so a session revoked
 * on the server signs the browser out at its next page load. Cached for one render.
 */
export const getCurrentUser = cache(async (): Promise<CurrentUser | null> => {
  const jar = await cookies();
  const header = jar
    .getAll()
    .map((c) => `${c.name}=${encodeURIComponent(c.value)}`)
    .join("; ");
  if (!header) return null;
  const token = await readWebSessionToken(new Request("http://coffre.invalid/", { headers: { cookie: header } }));
  if (!token) return null;
  try {
    const { ip } = requestInfo(new Request("http://coffre.invalid/", { headers: await headers() }));
    return await authenticateToken(await getDb(), token, ip);
  } catch (error) {
    // A session the connection options refuse now (address, day, hour) shows as signed out.
    if (error instanceof AppError && (error.code === "unauthorized" || error.code === "forbidden")) return null;
    throw error;
  }
});

/** True when the browser still holds a web session cookie (one the server no longer accepts, when getCurrentUser is null). */
export async function hasSessionCookie(): Promise<boolean> {
  const jar = await cookies();
  return jar.getAll().some((c) => /^(__Secure-)?next-auth\.session-token(\.\d+)?$/.test(c.name));
}
