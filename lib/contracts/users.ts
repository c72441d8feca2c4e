import { z } from "zod";
import { dateInput, flag, isoDate, listResponse, paging, principalId } from "@/lib/contracts/common";

export const LANGUAGES = ["auto", "fr", "en", "es", "pt", "cn", "de", "it"] as const;
export const language = z.enum(LANGUAGES);

/** A user or group given by its id, or by an object carrying it (clients send back what they read). */
export const principalRef = z.union([principalId, z.object({ id: principalId }).loose()]).transform((g) => (typeof g === "number" ? g : g.id));
const name = z.string().trim().max(255);

export const userFields = {
  firstname: name.optional(),
  lastname: name.optional(),
  email: z.string().trim().max(1024).optional(),
  organization: name.optional(),
  phone: z.string().trim().max(255).optional(),
  active: z.boolean().optional(),
  language: language.optional(),
  quota: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable().optional(),
  expire: dateInput.nullable().optional(),
  groups: z.array(principalRef).max(1000).optional(),
  can_edit_options: z.boolean().optional(),
  role: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]).optional(),
};

export const login = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(/^[^\s/\\]+$/, "A login has no spaces or slashes");

export const createUserBody = z.object({ login, password: z.string().min(1).max(1024), ...userFields });
export const updateUserBody = z.object({
  login: login.optional(),
  password: z.string().min(1).max(1024).optional(),
  ...userFields,
  /** Administrators only: the account must set up a second factor before anything else. */
  mfa_required: z.boolean().optional(),
});

export const userParams = z.object({ userId: principalId });
/** `alert`: mail the login and password to the user (on update, only when the password changes). */
export const alertQuery = z.object({ alert: flag });
/** The orders GET /users knows (`name` is the display name: first and last name, else the login). */
export const USER_SORTS = ["login", "name", "role", "used", "quota", "expire", "last_login"] as const;
export type UserSort = (typeof USER_SORTS)[number];

export const listUsersQuery = z.object({
  ...paging,
  keyword: z.string().trim().max(255).optional(),
  /** A group login. */
  member_of: z.string().trim().min(1).max(255).optional(),
  /**
   * Beyond the contract (api.md, third tranche: clients see nothing unless they ask): the order of
   * the whole list before paging, `login` by default; empty values (never signed in, no expiry)
   * come last either way.
   */
  sort: z.enum(USER_SORTS).default("login"),
  order: z.enum(["asc", "desc"]).default("asc"),
  /** Each User carries `used`: the bytes counted against their quota, as GET /user/(id)/quota says. */
  usage: flag,
});

export const groupSummary = z.object({ id: z.string(), login: z.string() });

export const userResponse = z.object({
  id: z.string(),
  login: z.string(),
  firstname: z.string(),
  lastname: z.string(),
  email: z.string(),
  roots: z.array(z.number()),
  organization: z.string(),
  phone: z.string(),
  active: z.boolean(),
  language: z.string(),
  current_language: z.string().optional(),
  quota: z.number().nullable(),
  expire: isoDate.nullable(),
  creation_date: isoDate.nullable(),
  last_login: isoDate.nullable(),
  ldap: z.boolean(),
  can_edit_options: z.boolean(),
  can_admin: z.boolean(),
  can_admin_users: z.boolean(),
  groups: z.array(groupSummary),
  manager_of: z.array(groupSummary),
  has_mfa_yubikey: z.boolean(),
  has_mfa_otp: z.boolean(),
  has_mfa_sms: z.boolean(),
  can_mfa_yubikey: z.boolean(),
  can_mfa_otp: z.boolean(),
  can_mfa_sms: z.boolean(),
  mfa_required: z.boolean(),
  role: z.number().int(),
  /** Only in GET /users?usage=1. */
  used: z.number().optional(),
});
export type UserResponse = z.infer<typeof userResponse>;
export const userListResponse = listResponse(userResponse);
/** GET /user/(id)/quota: bytes; `quota` null = none. */
export const userQuotaResponse = z.object({ quota: z.number().int().nullable(), used: z.number().int() });
