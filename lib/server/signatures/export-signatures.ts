import "server-only";
import { count, inArray } from "drizzle-orm";
import { signatureActors, signatureDocuments } from "@/db/schema";
import { ACTIVITY_EXPORT_COLUMNS, SIGNATURE_EXPORT_COLUMNS, type ExportQuery } from "@/lib/contracts/signatures";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { listSignatureActivities } from "./list-signature-activities";
import { findSignatureRows, listCondition, type SignatureListKind } from "./list-signature-requests";
import { presentSignatures } from "./present-signatures";
import { actorName } from "./signature-mails";

type Row = Record<string, string | number | null>;

function pickColumns(requested: string[] | undefined, known: readonly string[]): string[] {
  if (!requested) return [...known];
  const unknown = requested.filter((c) => !known.includes(c));
  if (unknown.length) throw new AppError("invalid_request", `Unknown column(s): ${unknown.join(", ")}`, [{ path: "columns", message: `Known columns: ${known.join(", ")}` }]);
  return requested;
}

/** A CSV cell: quoted when needed, and a leading = + - @ neutralised so a spreadsheet never runs it as a formula. */
function cell(value: string | number | null): string {
  if (value === null || value === undefined) return "";
  let s = String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n;]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The rows as CSV (the default) or JSON, as a download (api.md, "exports"). */
export function exportResponse(rows: Row[], columns: string[], format: "csv" | "json", name: string): Response {
  const picked = rows.map((r) => Object.fromEntries(columns.map((c) => [c, r[c] ?? null])));
  if (format === "json") {
    return new Response(JSON.stringify(picked), { headers: { "Content-Type": "application/json", "Content-Disposition": `attachment; filename="${name}.json"`, "Cache-Control": "no-store" } });
  }
  const lines = [columns.join(","), ...picked.map((r) => columns.map((c) => cell(r[c])).join(","))];
  return new Response(`\uFEFF${lines.join("\r\n")}\r\n`, { headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${name}.csv"`, "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } });
}

/** GET /signatures/export and /signatures/received/export: one line per request (filters and paging as the lists). */
export async function exportSignatureRequests(ctx: AuthedCtx, kind: Exclude<SignatureListKind, "templates">, query: ExportQuery, base: string): Promise<Response> {
  const columns = pickColumns(query.columns, SIGNATURE_EXPORT_COLUMNS);
  const { rows } = await findSignatureRows(ctx.db, listCondition(ctx, kind, query), query.offset_start, query.nb_objects);
  const ids = rows.map((r) => r.id);
  const [presented, docCounts, actors] = await Promise.all([
    presentSignatures(ctx.db, rows, { base, viewer: { links: "none" } }),
    ids.length ? ctx.db.select({ id: signatureDocuments.signatureId, n: count() }).from(signatureDocuments).where(inArray(signatureDocuments.signatureId, ids)).groupBy(signatureDocuments.signatureId) : [],
    ids.length ? ctx.db.select({ signatureId: signatureActors.signatureId, type: signatureActors.type, status: signatureActors.status }).from(signatureActors).where(inArray(signatureActors.signatureId, ids)) : [],
  ]);
  const out: Row[] = presented.map((s) => {
    const signers = actors.filter((a) => a.signatureId === s.id && a.type === "signer");
    return {
      id: s.id,
      name: s.name,
      status: s.status,
      mode: s.mode,
      level: s.level,
      ordered: s.ordered,
      owner: s.owner,
      user_id: s.user_id,
      creation_date: s.creation_date,
      expiration_date: s.expiration_date,
      completed_at: s.completed_at,
      deleted_at: s.deleted_at,
      nb_documents: docCounts.find((d) => d.id === s.id)?.n ?? 0,
      nb_signers: signers.length,
      nb_signed: signers.filter((a) => a.status === "done").length,
    };
  });
  return exportResponse(out, columns, query.format, kind === "received" ? "signatures-received" : "signatures");
}

/** GET /signatures/(id)/activities/export */
export async function exportSignatureActivities(ctx: AuthedCtx, signatureId: number, query: ExportQuery, base: string): Promise<Response> {
  const columns = pickColumns(query.columns, ACTIVITY_EXPORT_COLUMNS);
  const list = await listSignatureActivities(ctx, signatureId, query, base);
  const out: Row[] = list.objects.map((a) => ({
    id: a.id,
    date: a.date,
    action: a.action,
    from: a.from,
    to: a.to,
    actor_email: a.to_user?.email ?? null,
    actor_name: a.to_user ? actorName({ firstName: a.to_user.first_name, lastName: a.to_user.last_name, email: a.to_user.email }) : null,
    ip: a.ip,
    user_agent: a.user_agent,
    signature_id: a.signature_id,
  }));
  return exportResponse(out, columns, query.format, `signature-${signatureId}-activities`);
}

