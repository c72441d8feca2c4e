import { z } from "zod";
import { SCOPES } from "@/lib/contracts/scopes";
import { paging, isoDate, listResponse } from "@/lib/contracts/common";

/** Application kinds: the bit of the connection option oauth_blocked that blocks the application (1, 2, 4). */
export const OAUTH2_KINDS = ["web", "mobile", "mail_connector"] as const;

// Control and invisible format characters (bidi overrides...) would let an application's name
// or editor read differently on the consent screen.
const VISIBLE = /^[^\p{Cc}\p{Cf}]*$/u;
const text = (max: number) => z.string().trim().max(max).regex(VISIBLE, "Control and invisible format characters are not allowed");

/** A space-separated list of known scopes (api.md, "OAuth2"), each once, at least one. */
export const scopeString = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .transform((value, ctx) => {
    const scopes = [...new Set(value.split(/\s+/).filter(Boolean))];
    const unknown = scopes.filter((s) => !SCOPES.includes(s));
    if (unknown.length) {
      ctx.addIssue({ code: "custom", message: `Unknown scope: ${unknown.join(", ")}` });
      return z.NEVER;
    }
    return scopes.join(" ");
  });

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** RFC 6749 3.1.2: absolute, no fragment; https, or http on the loopback only (RFC 8252 7.3). */
export const callbackUri = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => {
    if (!URL.canParse(value)) return false;
    const url = new URL(value);
    if (url.hash || value.includes("#")) return false;
    return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname));
  }, "A callback is an absolute https URL (http only for localhost or 127.0.0.1), without a fragment");

export const editorUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => URL.canParse(value) && ["https:", "http:"].includes(new URL(value).protocol), "An http(s) URL");

const appFields = {
  name: text(255).min(1),
  description: text(2000).nullable().optional(),
  editor: text(255).nullable().optional(),
  editor_url: editorUrl.nullable().optional(),
  type: z.union([z.literal(0), z.literal(1)]),
  kind: z.enum(OAUTH2_KINDS).optional(),
  scope: scopeString,
  callbacks_uris: z.array(callbackUri).max(20),
};

/** POST /oauth2/app (api.md): a type 0 application needs a callback to send codes to. */
export const createAppBody = z
  .object({ ...appFields, callbacks_uris: appFields.callbacks_uris.default([]) })
  .refine((b) => b.type === 1 || b.callbacks_uris.length > 0, { path: ["callbacks_uris"], message: "A type 0 application needs at least one callback URI" });
export type CreateAppInput = z.output<typeof createAppBody>;

/** PUT /oauth2/app/(clientId): partial. */
export const updateAppBody = z.object({
  name: appFields.name.optional(),
  description: appFields.description,
  editor: appFields.editor,
  editor_url: appFields.editor_url,
  type: appFields.type.optional(),
  kind: appFields.kind,
  scope: scopeString.optional(),
  callbacks_uris: appFields.callbacks_uris.optional(),
});
export type UpdateAppInput = z.output<typeof updateAppBody>;

export const clientIdParams = z.object({ clientId: z.string().min(1).max(100) });
export const tokenParams = z.object({ token: z.string().min(1).max(100) });
export const pagingQuery = z.object({ ...paging });

/** The contract's OAuth2 application; `client_secret` only in the answers to create and reset. */
export const appResponse = z.object({
  client_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  editor: z.string().nullable(),
  editor_url: z.string().nullable(),
  type: z.number().int(),
  kind: z.enum(OAUTH2_KINDS),
  scope: z.string(),
  callbacks_uris: z.array(z.string()),
  owner_id: z.string().nullable(),
  owner: z.string().nullable(),
  creation: isoDate,
  modification: z.string(),
  client_secret: z.string().optional(),
});
export type AppResponse = z.infer<typeof appResponse>;

/** One authorisation of an application by a user (its access and refresh tokens together). */
export const grantResponse = z.object({
  token: z.string(),
  client_id: z.string(),
  application: z.string(),
  editor: z.string().nullable(),
  editor_url: z.string().nullable(),
  user_id: z.string(),
  user: z.string(),
  scope: z.string(),
  creation: isoDate,
  last_used: isoDate.nullable(),
  expiration: z.string().nullable(),
});
export type GrantResponse = z.infer<typeof grantResponse>;
export const appListResponse = listResponse(appResponse);
export const grantListResponse = listResponse(grantResponse);
