import { z } from "zod";
import { isoDate, listResponse } from "@/lib/contracts/common";
import { paging } from "./common";
import { reauthFields } from "./account";

/** api.md, "Account security": what a session is, by how it was opened. */
export const SESSION_KINDS = ["web", "api", "oauth2", "app_password"] as const;
export type SessionKind = (typeof SESSION_KINDS)[number];

/** GET /account/sessions: one way into the account. `name`: an app password's name (ours, beside the contract's fields). */
export const sessionResponse = z.object({
  id: z.number().int(),
  current: z.boolean(),
  created_at: isoDate,
  last_seen_at: isoDate,
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  kind: z.enum(SESSION_KINDS),
  name: z.string().nullable(),
});
export type SessionItem = z.output<typeof sessionResponse>;

export const sessionsQuery = z.object({ ...paging });
export const sessionParams = z.object({ sessionId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
export const appPasswordParams = z.object({ appPasswordId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

export const APP_PASSWORD_NAME_MAX = 100;

/** POST /account/app_passwords: a name, confirmed by the account's password (or a current `code`). */
export const createAppPasswordBody = z.object({
  name: z
    .string()
    .trim()
    .min(1)
    .max(APP_PASSWORD_NAME_MAX)
    // Direction overrides would let a name read as another in the sessions list ("\u202E" spoofing).
    .refine((v) => !/[\p{Cc}\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u.test(v), "No control or bidirectional characters"),
  ...reauthFields,
});
export type CreateAppPasswordInput = z.output<typeof createAppPasswordBody>;

/** GET /account/app_passwords: never the password. */
export const appPasswordResponse = z.object({
  id: z.number().int(),
  name: z.string(),
  created_at: isoDate,
  last_seen_at: isoDate.nullable(),
});
export type AppPasswordItem = z.output<typeof appPasswordResponse>;

/** The answer to POST /account/app_passwords: the password, this once. */
export const createdAppPasswordResponse = z.object({ id: z.number().int(), name: z.string(), password: z.string() });
export type CreatedAppPassword = z.output<typeof createdAppPasswordResponse>;
export const sessionListResponse = listResponse(sessionResponse);
export const appPasswordListResponse = listResponse(appPasswordResponse);
