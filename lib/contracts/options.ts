import { z } from "zod";
import { principalId } from "@/lib/contracts/common";

export const optionParams = z.object({ targetId: principalId });

const hour = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Expected "HH:MM" (platform time zone)');

/**
 * PUT /option/(targetId): every field optional (a partial update of the explicit row, created if
 * missing). `ips` entries are IPv4/IPv6 addresses or CIDR ranges (checked by the service); null
 * lifts the filter, [] forbids every address. The read-only fields a client sends back are ignored.
 */
export const updateOptionsBody = z.object({
  ips: z.array(z.string().trim().min(1).max(64)).max(1000).nullable().optional(),
  days: z.number().int().min(0).max(255).optional(),
  hour_start: hour.nullable().optional(),
  hour_end: hour.nullable().optional(),
  can_netsync: z.boolean().optional(),
  oauth_blocked: z.number().int().min(0).max(7).optional(),
});
export type UpdateOptionsInput = z.output<typeof updateOptionsBody>;

/** The contract's Connection options. */
export const optionsResponse = z.object({
  target_id: z.string(),
  target: z.string(),
  target_isgroup: z.boolean(),
  ips: z.array(z.string()).nullable(),
  days: z.number(),
  hour_start: z.string().nullable(),
  hour_end: z.string().nullable(),
  can_netsync: z.boolean(),
  oauth_blocked: z.number(),
  inherited: z.boolean(),
  /**
   * RO, beyond the contract: the platform's time zone (configuration `time_zone`, IANA), in which
   * `days`, `hour_start` and `hour_end` are read. The contract says GMT; the default zone, UTC, is that.
   */
  time_zone: z.string(),
});
export type OptionsResponse = z.infer<typeof optionsResponse>;
