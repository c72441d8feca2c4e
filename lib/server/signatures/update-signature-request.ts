import "server-only";
import { eq } from "drizzle-orm";
import { signatureRequests } from "@/db/schema";
import type { SignatureResponse, UpdateSignatureInput } from "@/lib/contracts/signatures";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { AppError } from "../errors";
import { reloadAndPresent } from "./present-signatures";
import { assertStatus, getOwnSignatureOrThrow } from "./signature-access";
import { assertFutureDate, assertLevelSupported } from "./signature-rules";

/** What may still change once a request is under way: reminders and the expiry. */
const LIVE_KEYS = new Set(["reminder_day", "expiration_date", "data"]);

/**
 * PUT /signatures/(id): name, mode, order, level, reminders, expiry, send_copy, is_template, subject, message
 * while draft; reminders and expiry only while ongoing (else 409 signature_state).
 */
export async function updateSignatureRequest(ctx: AuthedCtx, signatureId: number, input: UpdateSignatureInput, base: string): Promise<SignatureResponse> {
  const user = ctx.actor.user;
  assertLevelSupported(input.level);
  if (input.expiration_date) assertFutureDate(input.expiration_date);
  return ctx.db.transaction(async (tx) => {
    const request = await getOwnSignatureOrThrow(tx, user, signatureId, { forUpdate: true });
    const given = Object.entries(input).filter(([, v]) => v !== undefined).map(([k]) => k);
    const onlyLive = given.every((k) => LIVE_KEYS.has(k));
    assertStatus(request, onlyLive ? ["draft", "ongoing"] : ["draft"], onlyLive ? "change its reminders or expiry" : `change ${given.filter((k) => !LIVE_KEYS.has(k)).join(", ")}`);
    if (input.is_template && request.parentId !== null) throw new AppError("signature_state", "A mass request's child cannot become a template", { status: request.status });
    const settings = input.data?.reminder_settings;
    await tx
      .update(signatureRequests)
      .set({
        name: input.name,
        mode: input.mode,
        ordered: input.ordered,
        level: input.level,
        reminderDay: input.reminder_day,
        expirationDate: input.expiration_date,
        sendCopy: input.send_copy,
        isTemplate: input.is_template,
        subject: input.subject === undefined ? undefined : input.subject || null,
        message: input.message === undefined ? undefined : input.message || null,
        ...(settings === undefined ? {} : settings === null ? { reminderInterval: null, reminderMax: null } : { reminderInterval: settings.interval_in_days, reminderMax: settings.max_occurences }),
        updatedAt: new Date(),
      })
      .where(eq(signatureRequests.id, request.id));
    await writeLog(tx, { actor: user, request: ctx.request }, { type: "ADMLLOG_UPDATE", message: `Changed the signature request ${input.name ?? request.name}`, objectType: "signature", objectId: request.id, object: input.name ?? request.name });
    return reloadAndPresent(tx, request.id, { base, viewer: { links: "all" } });
  });
}
