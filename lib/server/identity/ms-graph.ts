import "server-only";
import type { z } from "zod";
import type { msGraphProviderBody } from "@/lib/contracts/identity-providers";
import type { TestFailure } from "./test-identity-provider";

type MsGraphInput = z.output<typeof msGraphProviderBody>;

const DEFAULT_AUTHORITY = "https://login.microsoftonline.com";
const DEFAULT_GRAPH = "https://graph.microsoft.com";
const TIMEOUT_MS = 10_000;

const failure = (code: string, reason: string, stage: string, server: string): TestFailure => ({ result: false, error: reason, code, details: { reason, stage, server } });

export function graphEndpoints(input: Pick<MsGraphInput, "tenant" | "authority" | "graph_url">) {
  const authority = (input.authority ?? DEFAULT_AUTHORITY).replace(/\/+$/, "");
  const graph = (input.graph_url ?? DEFAULT_GRAPH).replace(/\/+$/, "");
  return {
    token: `${authority}/${encodeURIComponent(input.tenant)}/oauth2/v2.0/token`,
    graph,
    scope: `${graph}/.default`,
  };
}

/**
 * The application's token (client credentials grant, Microsoft identity platform v2.0), then
 * one read of the organization with it: a right tenant, application and secret give `true`.
 */
export async function testMsGraph(input: MsGraphInput): Promise<true | TestFailure> {
  const { token: tokenUrl, graph, scope } = graphEndpoints(input);
  if (!input.client_secret) return failure("missing_secret", "A client secret is required to reach Microsoft Graph", "token", tokenUrl);
  let response: Response;
  try {
    response = await fetch(tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: input.client_id, client_secret: input.client_secret, scope }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
      redirect: "error",
    });
  } catch (error) {
    return failure("unreachable", `Cannot reach the token endpoint ${tokenUrl}: ${(error as Error).message}`, "token", tokenUrl);
  }
  const body = (await response.json().catch(() => null)) as { access_token?: unknown; error?: unknown; error_description?: unknown } | null;
  if (!response.ok || typeof body?.access_token !== "string") {
    const said = typeof body?.error_description === "string" ? body.error_description : typeof body?.error === "string" ? body.error : `HTTP ${response.status}`;
    return failure("token_refused", `The token endpoint refused the application: ${said.split("\n")[0].slice(0, 500)}`, "token", tokenUrl);
  }
  const organization = `${graph}/v1.0/organization?$select=id,displayName`;
  try {
    const read = await fetch(organization, { headers: { authorization: `Bearer ${body.access_token}`, accept: "application/json" }, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: "error" });
    if (!read.ok) return failure("graph_refused", `Microsoft Graph refused to read the organization: HTTP ${read.status}`, "graph", organization);
  } catch (error) {
    return failure("unreachable", `Cannot reach Microsoft Graph at ${graph}: ${(error as Error).message}`, "graph", organization);
  }
  return true;
}
