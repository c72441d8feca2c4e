import "server-only";
import { loadOnce } from "../boot/load-once";
import { getAuthSecret } from "./secret";

// next-auth's JWT code (jose) loads with the first browser session, not with every start.
const loadJwt = loadOnce(() => import("next-auth/jwt"));

const COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

/**
 * The web sign-in (next-auth) keeps, inside its encrypted cookie, the raw token of a row of the
 * sessions table; every check that applies to API tokens then applies to browsers too.
 */
export async function readWebSessionToken(req: Request): Promise<string | null> {
  const header = req.headers.get("cookie");
  if (!header) return null;
  const jar = parseCookies(header);
  const raw = COOKIES.map((name) => jar.get(name) ?? joinChunks(jar, name)).find(Boolean);
  if (!raw) return null;
  const { decode } = await loadJwt();
  try {
    const payload = await decode({ token: raw, secret: await getAuthSecret() });
    return typeof payload?.sessionToken === "string" ? payload.sessionToken : null;
  } catch {
    return null;
  }
}

function parseCookies(header: string): Map<string, string> {
  const jar = new Map<string, string>();
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0) jar.set(part.slice(0, eq).trim(), decodeURIComponent(part.slice(eq + 1).trim()));
  }
  return jar;
}

// next-auth splits large cookies into name.0, name.1, ...
function joinChunks(jar: Map<string, string>, name: string): string | undefined {
  const chunks: string[] = [];
  for (let i = 0; jar.has(`${name}.${i}`); i++) chunks.push(jar.get(`${name}.${i}`)!);
  return chunks.length ? chunks.join("") : undefined;
}
