import { z } from "zod";
import { id, listResponse, paging, principalId } from "@/lib/contracts/common";

export const delegateParams = z.object({ delegateId: id });
export const groupDelegatesParams = z.object({ groupId: principalId });
export const listDelegatesQuery = z.object({ ...paging });

/** The three scopes of a delegate (obsolete API): manage users, access rights, email alerts. */
const scopes = { users: z.boolean(), security: z.boolean(), alerts: z.boolean() };

// Unset scopes default to granted, as a manager (the role that replaced delegates) holds them all.
export const createDelegateBody = z.object({
  user_id: principalId,
  group_id: principalId,
  users: scopes.users.default(true),
  security: scopes.security.default(true),
  alerts: scopes.alerts.default(true),
});
export const updateDelegateBody = z.object({ users: scopes.users.optional(), security: scopes.security.optional(), alerts: scopes.alerts.optional() });
export type UpdateDelegateInput = z.output<typeof updateDelegateBody>;

/** The contract's Group delegate. */
export const delegateResponse = z.object({
  id: z.number(),
  user: z.string(),
  user_id: z.string(),
  group_id: z.string(),
  users: z.boolean(),
  security: z.boolean(),
  alerts: z.boolean(),
});
export type DelegateResponse = z.infer<typeof delegateResponse>;
export const delegateListResponse = listResponse(delegateResponse);
