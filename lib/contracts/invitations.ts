import { z } from "zod";
import { login } from "@/lib/contracts/users";
import { dateInput, id, isoDate, listResponse, paging } from "@/lib/contracts/common";

/** The contract's mask: 1 read, 2 download, 4 write, 8 edit, 16 delete, 32 share; an invitation grants something. */
export const rightsMask = z.number().int().min(1).max(63);

const name = z.string().trim().max(255);

export const invitationParams = z.object({ invitationId: id });
export const folderParams = z.object({ folderId: id });
/** Keys are base64url; anything else cannot be one, so it is a 404 like an unknown key. */
export const keyParams = z.object({ key: z.string().max(200) });

/** `expiration`: null or absent = never expires. */
export const createInvitationBody = z.object({
  target: z.string().trim().toLowerCase().pipe(z.email().max(320)),
  folder: id,
  rights: rightsMask,
  expiration: dateInput.nullable().optional(),
});
export type CreateInvitationBody = z.output<typeof createInvitationBody>;

export const updateInvitationBody = z
  .object({ rights: rightsMask.optional(), expiration: dateInput.nullable().optional() })
  .refine((b) => b.rights !== undefined || b.expiration !== undefined, { message: "Give rights or expiration" });
export type UpdateInvitationBody = z.output<typeof updateInvitationBody>;

export const invitableUsersQuery = z.object({ ...paging, search: z.string().trim().min(3, "search needs at least 3 characters").max(255) });
export type InvitableUsersQuery = z.output<typeof invitableUsersQuery>;

export const completeInvitationBody = z.object({ login, password: z.string().min(1).max(1024), firstname: name.optional(), lastname: name.optional() });
export type CompleteInvitationBody = z.output<typeof completeInvitationBody>;

/**
 * The contract's Invitation. `target` is the account created from it (null until then); `email`
 * and `used_at` are ours: a list of invitations is useless without the invited address.
 */
export const invitationResponse = z.object({
  id: z.string(),
  key: z.string(),
  email: z.string(),
  source: z.string(),
  source_name: z.string(),
  target: z.number().nullable(),
  expiration: isoDate.nullable(),
  folder: z.number().int(),
  rights: z.number().int(),
  used_at: isoDate.nullable(),
});
export type InvitationResponse = z.infer<typeof invitationResponse>;

/** What the public page shows before the account exists (api.md). */
export const invitationPreviewResponse = z.object({
  email: z.string(),
  folder_name: z.string(),
  source_name: z.string(),
  expiration: isoDate.nullable(),
});
export type InvitationPreview = z.infer<typeof invitationPreviewResponse>;

export const invitableUserResponse = z.object({ id: z.string(), name: z.string(), emails: z.array(z.string()) });
export type InvitableUser = z.infer<typeof invitableUserResponse>;
export const invitableUserListResponse = listResponse(invitableUserResponse);
export const invitationListResponse = z.array(invitationResponse);
