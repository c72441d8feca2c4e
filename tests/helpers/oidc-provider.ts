import { createServer, type Server } from "node:http";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import Provider, { type ClientMetadata } from "oidc-provider";
import { freePort } from "./simplesamlphp";

// A real OpenID provider for the tests: oidc-provider (the certified implementation) started in
// process on a free port. Its development interactions (a sign-in form that takes any login, then
// a consent form) stand in for the provider's own screens; discovery, authorization code with
// PKCE, signed ID tokens, nonce and userinfo are the library's own. Nothing of it is mocked.

export type OidcTestAccount = {
  /** The login typed into the provider's form; also the `sub` unless `sub` is given. */
  login: string;
  sub?: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  name?: string;
  preferred_username?: string;
};

export type OidcTestClient = { client_id: string; client_secret: string; redirect_uris: string[] };

export type OidcTestProvider = {
  issuer: string;
  /** The discovery document's address: what an `oidc` provider's `discovery` names. */
  discoveryUrl: string;
  /** Registers (or replaces) a confidential client. */
  addClient(client: OidcTestClient): void;
  /** Adds or replaces an account. */
  setAccount(account: OidcTestAccount): void;
  removeAccount(login: string): void;
  stop(): Promise<void>;
};

export async function startOidcProvider(options: { accounts?: OidcTestAccount[]; clients?: OidcTestClient[] } = {}): Promise<OidcTestProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const accounts = new Map<string, OidcTestAccount>();
  for (const account of options.accounts ?? []) accounts.set(account.login, account);
  // One store for the provider's state (sessions, codes, grants) and its clients, so clients
  // can be registered while it runs (oidc-provider reads Client entries from its adapter).
  const store = new Map<string, { payload: Record<string, unknown>; expiresAt: number | null }>();
  const key = (model: string, id: string) => `${model}:${id}`;
  class Adapter {
    constructor(private model: string) {}
    async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number) {
      store.set(key(this.model, id), { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : null });
    }
    async find(id: string) {
      const entry = store.get(key(this.model, id));
      return entry && (entry.expiresAt === null || entry.expiresAt > Date.now()) ? entry.payload : undefined;
    }
    async findByUid(uid: string) {
      return [...store.entries()].find(([k, v]) => k.startsWith(`${this.model}:`) && v.payload.uid === uid)?.[1].payload;
    }
    async findByUserCode(userCode: string) {
      return [...store.entries()].find(([k, v]) => k.startsWith(`${this.model}:`) && v.payload.userCode === userCode)?.[1].payload;
    }
    async consume(id: string) {
      const entry = store.get(key(this.model, id));
      if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(key(this.model, id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [k, v] of store) if (v.payload.grantId === grantId) store.delete(k);
    }
  }
  const register = (client: OidcTestClient) =>
    store.set(key("Client", client.client_id), {
      payload: { ...client, grant_types: ["authorization_code"], response_types: ["code"], token_endpoint_auth_method: "client_secret_basic" } satisfies ClientMetadata,
      expiresAt: null,
    });
  for (const client of options.clients ?? []) register(client);

  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const provider = new Provider(issuer, {
    adapter: Adapter as never,
    jwks: { keys: [{ ...(privateKey.export({ format: "jwk" }) as Record<string, string>), kid: "test", use: "sig", alg: "RS256" }] as never },
    cookies: { keys: [randomBytes(16).toString("hex")] },
    pkce: { required: () => true },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name", "given_name", "family_name", "preferred_username"],
    },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx, id) {
      const account = accounts.get(id) ?? [...accounts.values()].find((a) => a.sub === id);
      if (!account) return undefined;
      const { login, sub, ...claims } = account;
      return { accountId: sub ?? login, claims: async () => ({ sub: sub ?? login, ...claims }) };
    },
  });
  provider.on("server_error", (_ctx, error) => console.error("[oidc-provider]", error));

  const server: Server = createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));

  return {
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    addClient(client) {
      register(client);
    },
    setAccount(account) {
      accounts.set(account.login, account);
    },
    removeAccount(login) {
      accounts.delete(login);
    },
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
