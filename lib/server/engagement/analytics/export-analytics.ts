import "server-only";
import type { AuthedCtx } from "../../context";
import { getOwnShareOrThrow } from "../../shares/load-share";
import { loadVisitorRows, type VisitorRow } from "./visitor-rows";

const COLUMNS = ["email", "visits", "first_at", "last_at", "ms", "pages_seen", "completion", "downloads", "agreement_at"] as const satisfies readonly (keyof VisitorRow)[];

/**
 * GET /share/(id)/analytics/export: the visitors of `GET /share/(id)/analytics` as CSV (RFC 4180,
 * UTF-8 with a byte-order mark so spreadsheets read accents), for the same owner and administrators.
 */
export async function exportAnalytics(ctx: AuthedCtx, shareId: number): Promise<Response> {
  const share = await getOwnShareOrThrow(ctx.db, ctx.actor.user, shareId);
  const visitors = await loadVisitorRows(ctx.db, share.id);
  const lines = [COLUMNS.join(","), ...visitors.map((v) => COLUMNS.map((c) => csvCell(v[c])).join(","))];
  return new Response(`\ufeff${lines.join("\r\n")}\r\n`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="link-${share.id}-visitors.csv"`,
      "Cache-Control": "no-store",
    },
  });
}

/**
 * One CSV field. A visitor types their own email: a text starting with = + - @ (or a tab or
 * carriage return) would be a formula to a spreadsheet, so it gets a leading apostrophe (OWASP,
 * CSV injection); numbers are written as they are.
 */
export function csvCell(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) || safe !== value ? `"${safe.replace(/"/g, '""')}"` : safe;
}
