import { z } from "zod";
import { flag, listResponse, paging, principalId } from "@/lib/contracts/common";
import { principalRef, userResponse } from "./users";

export const groupLogin = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(/^[^\p{Cc}]*$/u, "A group name has no control characters");

const userIds = (max: number) => z.array(principalRef).max(max);

// `members` replaces the whole member list; `managers` (our extension, the users' manager_of)
// replaces the list of managers (role 4 users) of the group.
export const createGroupBody = z.object({ login: groupLogin, members: userIds(10_000).default([]), managers: userIds(1000).optional() });
export const updateGroupBody = z.object({ login: groupLogin.optional(), members: userIds(10_000).optional(), managers: userIds(1000).optional() });

export const groupParams = z.object({ groupId: principalId });
/** `full` includes `members` (and `managers`) as Users. */
export const groupQuery = z.object({ full: flag });
export const listGroupsQuery = z.object({ ...paging, keyword: z.string().trim().max(255).optional() });

export const groupResponse = z.object({
  id: z.string(),
  login: z.string(),
  ldap: z.boolean(),
  nb_members: z.number(),
  members: z.array(userResponse).optional(),
  managers: z.array(userResponse).optional(),
});
export type GroupResponse = z.infer<typeof groupResponse>;
export const groupListResponse = listResponse(groupResponse);
