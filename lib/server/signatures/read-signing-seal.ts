import "server-only";
import type { X509Certificate } from "node:crypto";
import type { SigningSeal } from "@/lib/contracts/signing-seal";
import { type AuthedCtx, isAdmin } from "../context";
import { forbidden } from "../errors";
import { crlUrls, ocspUrls } from "./seal/certificate-fields";
import { longTermSettings } from "./seal/long-term";
import { getSigningCredentials } from "./seal/signing-credentials";

const DAY_MS = 86_400_000;
const WARN_DAYS = 30;

/**
 * GET /signatures/seal: the certificate that seals, where it comes from (SIGNING_P12 or the
 * platform's own CA), and the PAdES level of the next seal: B-B without a timestamp authority,
 * B-T with SIGNING_TSA_URL, B-LT when the certificate's issuers also publish OCSP or CRLs.
 */
export async function readSigningSeal(ctx: AuthedCtx, now = Date.now()): Promise<SigningSeal> {
  if (!isAdmin(ctx.actor.user)) throw forbidden("Administrators only");
  const { chain } = await getSigningCredentials(ctx.db);
  const [leaf, ...issuers] = chain;
  const { tsa } = longTermSettings();
  const publishesRevocation = chain.some((c) => ocspUrls(c).length > 0 || crlUrls(c).length > 0);
  const ends = Date.parse(leaf.validTo);
  const daysLeft = Math.floor((ends - now) / DAY_MS);
  return {
    source: process.env.SIGNING_P12?.trim() ? "p12" : "platform",
    level: !tsa ? "B-B" : publishesRevocation ? "B-LT" : "B-T",
    timestamp_authority: tsa?.url ?? null,
    certificate: { ...describe(leaf), days_left: daysLeft, platform_ca: !process.env.SIGNING_P12?.trim() },
    chain: issuers.map(describe),
    warning: ends <= now ? "expired" : daysLeft < WARN_DAYS ? "expiring" : null,
  };
}

function describe(c: X509Certificate) {
  return {
    subject: oneLine(c.subject),
    issuer: oneLine(c.issuer),
    serial: c.serialNumber,
    valid_from: new Date(c.validFrom).toISOString(),
    valid_to: new Date(c.validTo).toISOString(),
  };
}

/** X509Certificate names come one attribute per line, in the certificate's order, as openssl prints them. */
const oneLine = (name: string) => name.split("\n").filter(Boolean).join(", ");
