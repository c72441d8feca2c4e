import { z } from "zod";

/** A query flag (api.md): present with no value, `1` or `true` = on; `0`/`false` = off. */
export const flag = z
  .union([z.boolean(), z.enum(["", "1", "true", "0", "false"])])
  .optional()
  .transform((v) => v === true || v === "" || v === "1" || v === "true");

/** A positive integer id taken from a path or query string. */
export const id = z.coerce.number().int().positive().max(2_147_483_647);
/** A principal (user or group) id: the contract writes them as strings; we accept numbers too. */
export const principalId = z.union([z.string(), z.number()]).pipe(z.coerce.number<string | number>().int().positive().max(2_147_483_647));

/** Paging (api.md): default 0/30, `nb_objects` clamped to 1000, negatives refused. */
export const paging = {
  offset_start: z.coerce.number().int().min(0).default(0),
  nb_objects: z.coerce.number().int().min(0).default(30).transform((n) => Math.min(n, 1000)),
};

/** ISO 8601, unix seconds, or `@unix` (search parameters); null clears. */
export const dateInput = z
  .union([z.string(), z.number()])
  .transform((v, ctx) => {
    const date = parseDateInput(v);
    if (!date) {
      ctx.addIssue({ code: "custom", message: "Expected an ISO 8601 date or unix seconds" });
      return z.NEVER;
    }
    return date;
  });

export function parseDateInput(v: string | number): Date | null {
  if (typeof v === "number") return Number.isFinite(v) ? new Date(v * 1000) : null;
  const s = v.trim().replace(/^@/, "");
  if (/^-?\d+$/.test(s)) return new Date(Number(s) * 1000);
  if (!/^\d{4}-\d{2}-\d{2}/.test(s)) return null;
  const date = new Date(s);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A date in an answer: ISO 8601, as toISOString() writes it (the contract's "date"). */
export const isoDate = z.iso.datetime({ offset: true });

/** The contract's list envelope around a page of `item` (server/present/envelope.ts writes it; both spellings of the count, api.md). */
export const listResponse = <T extends z.ZodType>(item: T) =>
  z.object({
    offset_start: z.number().int(),
    nb_objets: z.number().int(),
    nb_objects: z.number().int(),
    nb_total_objects: z.number().int(),
    objects: z.array(item),
  });

/** An operation that answers 204 and nothing else: any 2xx JSON answer from it is a mismatch (route()'s `response`). */
export const noContent = z.never().describe("204 No Content");
/**
 * An answer that is not JSON (a file, a picture, a PDF): its media type, for the OpenAPI document;
 * a 2xx JSON answer from such an operation is a mismatch.
 */
export const notJson = (mediaType: string) => z.never().describe(mediaType);
/** An operation that answers with a redirect (302 or 303) to a page or a provider, never JSON. */
export const redirect = z.never().describe("302 or 303 redirect");
