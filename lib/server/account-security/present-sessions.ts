import "server-only";
import type { Session } from "@/db/schema";
import type { AppPasswordItem, SessionItem, SessionKind } from "@/lib/contracts/account-security";
import { APP_PASSWORD_KIND } from "./app-passwords";

/** A row's kind in the contract's words: OAuth2 tokens are stored as `oauth:<application kind>`. */
export function sessionKind(row: Pick<Session, "kind">): SessionKind {
  if (row.kind === APP_PASSWORD_KIND) return "app_password";
  if (row.kind.startsWith("oauth")) return "oauth2";
  return row.kind === "web" ? "web" : "api";
}

export function presentSession(row: Session, currentId: number | null): SessionItem {
  return {
    id: row.id,
    current: row.id === currentId,
    created_at: row.createdAt.toISOString(),
    last_seen_at: row.lastUsedAt.toISOString(),
    ip: row.ip,
    user_agent: row.userAgent,
    kind: sessionKind(row),
    name: row.name,
  };
}

/** An app password never used yet has its creation as last use: none is shown. */
export function presentAppPassword(row: Session): AppPasswordItem {
  const used = row.lastUsedAt.getTime() !== row.createdAt.getTime();
  return { id: row.id, name: row.name ?? "", created_at: row.createdAt.toISOString(), last_seen_at: used ? row.lastUsedAt.toISOString() : null };
}
