import "server-only";
import type { ShareGate } from "@/db/schema";
import type { ShareGateJson } from "@/lib/contracts/engagement";

/**
 * A link's gate (api.md, "Document engagement on link shares"): the rules shared by the owner's
 * operations (create, update, present), the resolver of visitors and the visitor route.
 */

export const NO_GATE: ShareGate = { askEmail: false, verifyEmail: false, allow: [], deny: [], agreement: null, watermark: false, notifyView: false };

/** What the owner may send (the contract's snake_case fields, parsed by `shareGateFields`). */
export type GateInput = {
  ask_email?: boolean;
  verify_email?: boolean;
  allow?: string[];
  deny?: string[];
  agreement?: string | null;
  watermark?: boolean;
  notify_view?: boolean;
};

export const hasGateInput = (input: GateInput) =>
  [input.ask_email, input.verify_email, input.allow, input.deny, input.agreement, input.watermark, input.notify_view].some((v) => v !== undefined);

/**
 * The gate to store after a create or an update: fields absent keep their stored value; verifying
 * an address, or a list of addresses, needs one, so they turn `askEmail` on. Null when nothing is
 * asked nor done (no gate).
 */
export function mergeGate(current: ShareGate | null, input: GateInput): ShareGate | null {
  const base = current ?? NO_GATE;
  const gate: ShareGate = {
    askEmail: input.ask_email ?? base.askEmail,
    verifyEmail: input.verify_email ?? base.verifyEmail,
    allow: input.allow ? unique(input.allow) : base.allow,
    deny: input.deny ? unique(input.deny) : base.deny,
    agreement: input.agreement !== undefined ? input.agreement || null : base.agreement,
    watermark: input.watermark ?? base.watermark,
    notifyView: input.notify_view ?? base.notifyView,
  };
  if (gate.verifyEmail || gate.allow.length > 0 || gate.deny.length > 0) gate.askEmail = true;
  const empty = !gate.askEmail && !gate.verifyEmail && !gate.allow.length && !gate.deny.length && !gate.agreement && !gate.watermark && !gate.notifyView;
  return empty ? null : gate;
}

const unique = (entries: string[]) => [...new Set(entries)];
const sameList = (a: string[], b: string[]) => a.length === b.length && [...a].sort().join("\n") === [...b].sort().join("\n");

/**
 * Whether visitors who passed `before` may not pass `after`: an email newly asked or verified,
 * other allow or deny lists, another agreement. Their visitor tokens are then revoked.
 */
export function isStricter(before: ShareGate | null, after: ShareGate | null): boolean {
  const b = before ?? NO_GATE;
  const a = after ?? NO_GATE;
  return (a.askEmail && !b.askEmail) || (a.verifyEmail && !b.verifyEmail) || !sameList(a.allow, b.allow) || !sameList(a.deny, b.deny) || (a.agreement ?? null) !== (b.agreement ?? null);
}

/** Whether the link's other public operations wait for a visitor's access token. */
export const needsVisitor = (gate: ShareGate | null | undefined): boolean => Boolean(gate && (gate.askEmail || gate.agreement));

/** The gate as its owner reads it on the Share (zeros and empties without a gate). */
export function shareGateJson(gate: ShareGate | null): ShareGateJson {
  const g = gate ?? NO_GATE;
  return {
    ask_email: g.askEmail ? 1 : 0,
    verify_email: g.verifyEmail ? 1 : 0,
    allow: g.allow,
    deny: g.deny,
    agreement: g.agreement,
    watermark: g.watermark ? 1 : 0,
    notify_view: g.notifyView ? 1 : 0,
  };
}

/** An address matches an entry when it is that address, or ends with that `@domain` (both lower-cased). */
const matches = (email: string, entry: string) => (entry.startsWith("@") ? email.endsWith(entry) : email === entry);

/** Deny wins; a non-empty allow list lets only its addresses and domains in. */
export function isAddressAllowed(gate: ShareGate, email: string): boolean {
  const address = email.toLowerCase();
  if (gate.deny.some((entry) => matches(address, entry))) return false;
  return gate.allow.length === 0 || gate.allow.some((entry) => matches(address, entry));
}
