import "server-only";
import { createIdentityProviderBody, type IdentityProviderInput, isLdapType, type TestDetailsResponse } from "@/lib/contracts/identity-providers";
import { writeLog } from "../audit/write-log";
import type { AuthedCtx } from "../context";
import { assertIdentityAdmin, getIdentityProviderOrThrow } from "./get-identity-provider";
import { DirectoryUnavailableError, openDirectory, ServiceBindError } from "./ldap-client";
import { ldapSettingsFrom } from "./ldap-settings";
import { testMsGraph } from "./ms-graph";
import { fillStoredSecrets } from "./provider-config";

export type TestFailure = Extract<TestDetailsResponse, { result: false }>;

export const testFailure = (code: string, reason: string, extra: Record<string, unknown> = {}): TestFailure => ({
  result: false,
  error: reason,
  code,
  details: { reason, ...extra },
});

/** Probes a validated configuration; the ldap kinds bind as the service account and search the base DN. */
export async function probeProvider(input: IdentityProviderInput): Promise<true | TestFailure> {
  if (isLdapType(input.type)) {
    const s = ldapSettingsFrom(input.type, input as Record<string, unknown>, null);
    let conn;
    try {
      conn = await openDirectory(s);
    } catch (error) {
      if (error instanceof ServiceBindError) return testFailure("bind_failed", error.message, { server: error.server, stage: "bind" });
      if (error instanceof DirectoryUnavailableError) return testFailure("unreachable", error.message, { server: error.server, stage: error.stage });
      throw error;
    }
    try {
      await conn.search(s.baseDN, { scope: "base", filter: "(objectClass=*)", attributes: ["1.1"] });
      const people = await conn.search(s.baseDN, { filter: s.userFilter, attributes: ["1.1"], sizeLimit: 1 }).catch((error: Error) => error);
      if (people instanceof Error && !/size ?limit/i.test(people.message)) {
        return testFailure("search_failed", `The user filter ${s.userFilter} failed: ${people.message}`, { server: conn.server, stage: "search" });
      }
      return true;
    } catch (error) {
      if (error instanceof DirectoryUnavailableError) return testFailure("unreachable", error.message, { server: error.server, stage: error.stage });
      return testFailure("search_failed", `The base DN ${s.baseDN} cannot be read: ${(error as Error).message}`, { server: conn.server, stage: "search" });
    } finally {
      await conn.close();
    }
  }
  if (input.type === "ms-graph") return testMsGraph(input);
  // OpenID Connect and SAML: the sso module tests them (discovery / metadata) when it registers a probe.
  const probe = SSO_PROBES[input.type];
  if (probe) return probe(input);
  return testFailure("not_testable", `Providers of type ${input.type} cannot be tested yet`);
}

/** Probes for the SSO types, registered by their module (lib/server/sso) without an import cycle. */
export const SSO_PROBES: Partial<Record<IdentityProviderInput["type"], (input: IdentityProviderInput) => Promise<true | TestFailure>>> = {};

/**
 * POST /identity/provider/test: tests a configuration WITHOUT saving it. `true`, or
 * `{result: false, error, code, details: {reason, server?, stage?}}` (test-answer.ts answers it). With `id`, secrets the
 * body leaves out (or sends as the placeholder) come from that stored provider, so the console
 * can test an edited form without retyping the password.
 */
export async function testIdentityProvider(ctx: AuthedCtx, body: Record<string, unknown> & { id?: number }): Promise<true | TestFailure> {
  assertIdentityAdmin(ctx);
  const stored = body.id === undefined ? null : await getIdentityProviderOrThrow(ctx.db, body.id);
  const config: Record<string, unknown> = { ...body };
  delete config.id;
  const withType = stored && config.type === undefined ? { ...config, type: stored.type } : config;
  const input = createIdentityProviderBody.parse(await fillStoredSecrets(withType, stored)) as IdentityProviderInput;
  const result = await probeProvider(input);
  await writeLog(ctx.db, { actor: ctx.actor.user, request: ctx.request }, {
    type: "ADMLLOG_CONFIG",
    ok: result === true,
    message: `Tested identity provider ${input.name} (${input.type}): ${result === true ? "ok" : result.details.reason}`,
    objectType: "identity_provider",
    objectId: stored?.id,
    object: input.name,
  });
  return result;
}
