import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as foldersRoute from "@/app/api/folders/route";
import * as sessionRoute from "@/app/api/account/session/[sessionId]/route";
import * as sessionsRoute from "@/app/api/account/sessions/route";
import { createAdmin, createTestUser, type TestUser } from "../../helpers/factories";
import { call, expectError } from "../../helpers/http";
import { basic, CALLBACK, consent, createApp, pkcePair, postForm, startAuthorizationServer, webSessionCookie } from "../oauth2/oauth2-helpers";

// An OAuth2 access token is a session of kind oauth2 (api.md, "Account security"); ending it ends
// the application's grant with it, or its refresh token would mint the next access token.
let server: Awaited<ReturnType<typeof startAuthorizationServer>>;
let app: { client_id: string; client_secret: string };

beforeAll(async () => {
  server = await startAuthorizationServer();
  app = await createApp((await createAdmin()).token, { scope: "files.readwrite offline" });
}, 120_000);
afterAll(() => server.close());

const token = (fields: Record<string, string>) => postForm(`${server.url}/oauth2/token`, fields, { authorization: basic(app.client_id, app.client_secret) });

async function grantOf(user: TestUser) {
  const pkce = pkcePair();
  const answer = await consent(server.url, await webSessionCookie(user.id), { client_id: app.client_id, redirect_uri: CALLBACK, scope: "files.readwrite offline", code_challenge: pkce.challenge, code_challenge_method: "S256", state: "s" });
  expect(answer.status, answer.text).toBe(200);
  const code = new URL(answer.body.redirect_to).searchParams.get("code")!;
  const issued = await token({ grant_type: "authorization_code", code, code_verifier: pkce.verifier, redirect_uri: CALLBACK });
  expect(issued.status, issued.text).toBe(200);
  return issued.body as { access_token: string; refresh_token: string };
}

describe("OAuth2 tokens among the sessions", () => {
  it("are listed as oauth2 and web sessions as web; ending one ends its access and refresh tokens", async () => {
    const user = await createTestUser();
    const issued = await grantOf(user);
    const listed = (await call(sessionsRoute.GET, { path: "/api/account/sessions", token: user.token })).body.objects as { id: number; kind: string }[];
    // The API token, the web session the consent was given from, and the application's access token.
    expect(listed.map((s) => s.kind).sort()).toEqual(["api", "oauth2", "web"]);
    const oauth = listed.find((s) => s.kind === "oauth2")!;
    expect((await call(foldersRoute.GET, { path: "/api/folders", token: issued.access_token })).status).toBe(200);
    const res = await call(sessionRoute.DELETE, { method: "DELETE", path: `/api/account/session/${oauth.id}`, token: user.token, params: { sessionId: String(oauth.id) } });
    expect(res.status, res.text).toBe(204);
    expectError(await call(foldersRoute.GET, { path: "/api/folders", token: issued.access_token }), 401);
    const refresh = await token({ grant_type: "refresh_token", refresh_token: issued.refresh_token });
    expect([refresh.status, refresh.body.error]).toEqual([400, "invalid_grant"]);
  });
});
