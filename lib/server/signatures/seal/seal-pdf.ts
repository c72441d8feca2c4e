import "server-only";
import type { DbOrTx } from "@/db";
import type { AuditTrailInput } from "./audit-trail-pdf";
import { longTermSettings } from "./long-term";
import { runSealTask } from "./seal-pool";
import type { SealInfo } from "./seal-with-signer";
import { getSigningCredentials } from "./signing-credentials";
import type { Stamp } from "./stamp-fields";

export type { SealInfo } from "./seal-with-signer";

/**
 * Seals a finished PDF with the platform's key (PAdES B-B over the whole file, seal-with-signer.ts;
 * B-T and B-LT with SIGNING_TSA_URL, long-term.ts), in a seal worker: the key signs on this
 * thread, the document is read and written there, the TSA and OCSP responders are asked from there.
 */
export async function sealPdf(db: DbOrTx, pdf: Uint8Array, info: SealInfo): Promise<Uint8Array> {
  const { signer } = await getSigningCredentials(db);
  return runSealTask("seal", { pdf, info, longTerm: longTermSettings() }, { signer });
}

/** Every field stamped onto the original (stamp-fields.ts), then sealed once, in one worker task. */
export async function stampAndSealPdf(db: DbOrTx, pdf: Uint8Array, stamps: Stamp[], info: SealInfo): Promise<Uint8Array> {
  const { signer } = await getSigningCredentials(db);
  return runSealTask("sign", { pdf, stamps, info, longTerm: longTermSettings() }, { signer });
}

/** The audit trail drawn (audit-trail-pdf.ts) and sealed, in one worker task, for a request. */
export async function renderSealedAuditTrail(db: DbOrTx, input: AuditTrailInput, info: SealInfo): Promise<Uint8Array> {
  const { signer } = await getSigningCredentials(db);
  return runSealTask("auditTrail", { input, info, longTerm: longTermSettings() }, { signer, request: true });
}
