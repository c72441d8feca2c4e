import "server-only";
import { eq } from "drizzle-orm";
import type { AuthOptions } from "next-auth";
import * as credentialsModule from "next-auth/providers/credentials";
import { getDb } from "@/db";
import { sessions } from "@/db/schema";
import { displayName } from "../audit/write-log";
import { completeSignInBody, type MfaRequiredDetails } from "@/lib/contracts/mfa";
import type { RequestInfo } from "../context";
import { AppError } from "../errors";
import { requestInfo } from "../http/request-info";
import { nextAuthRedirect } from "../http/return-path";

import { completeSignIn } from "../mfa/complete-sign-in";
import { relyingParty } from "../mfa/relying-party";
import { connect } from "./connect";
import { getAuthSecret } from "./secret";
import { hashToken } from "./tokens";

// A CommonJS module compiled from ESM: Next's bundler unwraps its default, Node's own ESM loader
// (server.ts, which now answers the SSO callbacks: issue 26) hands over module.exports, whose
// `default` is the provider.
type Credentials = typeof import("next-auth/providers/credentials").default;
const imported = credentialsModule as unknown as { default: Credentials | { default: Credentials } };
const CredentialsProvider: Credentials = typeof imported.default === "function" ? imported.default : imported.default.default;

// The sessions table enforces session_limit and session_idle; the cookie itself may live long.
const COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

declare module "next-auth" {
  interface User {
    sessionToken?: string;
  }
}
declare module "next-auth/jwt" {
  interface JWT {
    sessionToken?: string;
  }
}

let options: Promise<AuthOptions> | undefined;

/**
 * next-auth v4 options, built once: the secret may come from the database (getAuthSecret).
 * The credentials provider signs in through connect(), so the web session is a row of the same
 * sessions table as API tokens, with the same throttling, audit log and account checks.
 */
export function getAuthOptions(): Promise<AuthOptions> {
  setAuthUrl();
  options ??= buildOptions().catch((error) => {
    options = undefined;
    throw error;
  });
  return options;
}

async function buildOptions(): Promise<AuthOptions> {
  return {
    secret: await getAuthSecret(),
    session: { strategy: "jwt", maxAge: COOKIE_MAX_AGE_S },
    pages: { signIn: "/login", error: "/login" },
    providers: [
      CredentialsProvider({
        name: "Coffre",
        credentials: {
          login: { label: "Login", type: "text" },
          password: { label: "Password", type: "password" },
          // The second step (lib/server/mfa): the token of the first, and a code or a security key's answer (JSON).
          mfa_token: { label: "Sign-in token", type: "text" },
          method: { label: "Method", type: "text" },
          code: { label: "Code", type: "text" },
          response: { label: "Security key response", type: "text" },
        },
        async authorize(credentials, req) {
          const headers = new Headers();
          for (const [name, value] of Object.entries(req.headers ?? {})) if (typeof value === "string") headers.set(name, value);
          const request = requestInfo(new Request("http://coffre.invalid/api/auth/callback/credentials", { headers }));
          if (credentials?.mfa_token) return secondStep(credentials, headers, request);
          const user = String(credentials?.login ?? "").trim();
          const password = String(credentials?.password ?? "");
          if (!user || !password) throw new Error("wrong_credentials");
          try {
            const { token, user: signedIn } = await connect({ db: await getDb(), actor: null, request }, { user, password }, "web");
            return { id: String(signedIn.id), name: displayName(signedIn), sessionToken: token };
          } catch (error) {
            throw new Error(describeFailure(error));
          }
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        // Only the sign-in call carries `user`; the token keeps the sessions row's raw token (web-session.ts reads it).
        if (user?.sessionToken) token.sessionToken = user.sessionToken;
        return token;
      },
      async session({ session, token }) {
        return { ...session, user: { name: token.name ?? null } };
      },
      // callbackUrl, on every next-auth page and action (sign-out included): paths of this site only.
      redirect: async (params) => nextAuthRedirect(params),
    },
    events: {
      async signOut({ token }) {
        const sessionToken = token?.sessionToken;
        if (typeof sessionToken !== "string") return;
        const db = await getDb();
        await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(sessionToken)));
      },
    },
  };
}

/**
 * BASE_URL, when set, is the public address next-auth must use. Without it, next-auth v4 takes
 * the address from the request's Host / X-Forwarded-* headers (AUTH_TRUST_HOST), so a first
 * start on http://127.0.0.1:3000 or behind a proxy works with no configuration.
 */
function setAuthUrl() {
  const base = process.env.BASE_URL;
  if (base && /^https?:\/\//.test(base)) process.env.NEXTAUTH_URL ||= `${base.replace(/\/+$/, "")}/api/auth`;
  else process.env.AUTH_TRUST_HOST ||= "true";
}

/** The web sign-in's second step: the same service as POST /auth/mfa, opening a web session. */
async function secondStep(credentials: Record<string, string | undefined>, headers: Headers, request: RequestInfo) {
  const parsed = completeSignInBody.safeParse({
    mfa_token: credentials.mfa_token,
    method: credentials.method,
    code: credentials.code || undefined,
    response: credentials.response ? safeJson(credentials.response) : undefined,
  });
  if (!parsed.success) throw new Error("wrong_code");
  try {
    const rp = parsed.data.method === "webauthn" ? relyingParty(headers) : null;
    const { token, user } = await completeSignIn({ db: await getDb(), actor: null, request }, parsed.data, { kind: "web", rp });
    return { id: String(user.id), name: displayName(user), sessionToken: token };
  } catch (error) {
    throw new Error(describeFailure(error));
  }
}

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

function describeFailure(error: unknown): string {
  if (error instanceof AppError && error.code === "mfa_required") {
    const details = error.details as MfaRequiredDetails;
    return `mfa_required:${details.mfa_token}:${details.methods.join(",")}`;
  }
  if (error instanceof AppError && error.code === "unauthorized") {
    const reason = (error.details as { reason?: string } | undefined)?.reason;
    if (reason === "wrong_code") return "wrong_code";
    if (reason === "mfa_token_expired") return "mfa_expired";
  }
  if (error instanceof AppError) {
    if (error.code === "too_many_requests") return `too_many_requests:${error.headers?.["Retry-After"] ?? ""}`;
    if (error.code === "unauthorized") {
      // connect() answers every refusal with 401; a refused account carries its reason.
      const reason = (error.details as { reason?: string } | undefined)?.reason;
      if (reason === "expired") return "account_expired";
      if (reason === "inactive" || reason === "deleted") return "account_inactive";
      return "wrong_credentials";
    }
    // Connection options (address, day, hour, web blocked) refuse a right password with a 403.
    if (error.code === "forbidden") return "connection_not_allowed";
    if (error.code === "service_unavailable") return "directory_unavailable";
  }
  console.error("[coffre] web sign-in failed:", error);
  return "internal_error";
}
