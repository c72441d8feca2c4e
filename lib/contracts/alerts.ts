import { z } from "zod";
import { dateInput, flag, id, isoDate, principalId } from "@/lib/contracts/common";

export const alertParams = z.object({ alertId: id });
export const alertsListParams = z.object({ folderId: id });
/** `recursive`: list, change or remove the same target's alerts on the subfolders too. */
export const recursiveQuery = z.object({ recursive: flag });

/** An EM_TE_ALERT template id; -1 (the contract's example) or null = the default alert mail. */
const alertEmail = z.union([z.null(), z.literal(-1), z.literal("-1"), id]).transform((v) => (v === null || v === -1 || v === "-1" ? null : v));

export const createAlertBody = z.object({
  folder_id: id,
  target_id: principalId,
  email: alertEmail.optional(),
  expiration_date: dateInput.nullable().optional(),
});
export type CreateAlertBody = z.output<typeof createAlertBody>;

/**
 * Partial. `folder_id` and `target_id` are read back by clients that PUT a whole Alert: they
 * must then name the alert's own (create another alert to follow something else). `active`
 * pauses or resumes an alert; an expired one stays inactive.
 */
export const updateAlertBody = z.object({
  folder_id: id.optional(),
  target_id: principalId.optional(),
  email: alertEmail.optional(),
  expiration_date: dateInput.nullable().optional(),
  active: z.boolean().optional(),
});
export type UpdateAlertBody = z.output<typeof updateAlertBody>;

/** The contract's Email alert (api.md: `target_isgroup` true means a group): `target_id` an int, `owner_id` a string, as the contract types them. */
export const alertResponse = z.object({
  id: z.number().int(),
  folder_id: z.number().int(),
  target_id: z.number().int(),
  target: z.string(),
  target_isgroup: z.boolean(),
  active: z.boolean(),
  email: z.number().int(),
  expiration_date: isoDate.nullable(),
  owner: z.string(),
  owner_id: z.string(),
});
export type AlertResponse = z.infer<typeof alertResponse>;
export const alertListResponse = z.array(alertResponse);
