import { z } from "zod";
import { isoDate } from "./common";

/** One certificate of the sealing chain, as the console shows it. */
export const sealCertificate = z.object({
  subject: z.string(),
  issuer: z.string(),
  serial: z.string(),
  valid_from: isoDate,
  valid_to: isoDate,
});

/**
 * GET /api/signatures/seal (administrators): which certificate seals signed PDFs, the PAdES
 * level the seals reach, and whether the certificate nears its end (30 days) or has passed it.
 */
export const signingSealResponse = z.object({
  source: z.enum(["platform", "p12"]),
  level: z.enum(["B-B", "B-T", "B-LT"]),
  timestamp_authority: z.string().nullable(),
  certificate: sealCertificate.extend({
    days_left: z.int(),
    /** Issued by the platform's own CA, which no PDF reader trusts out of the box. */
    platform_ca: z.boolean(),
  }),
  /** The issuers above the certificate, up to the top of the chain. */
  chain: z.array(sealCertificate),
  warning: z.enum(["expiring", "expired"]).nullable(),
});

export type SigningSeal = z.infer<typeof signingSealResponse>;
