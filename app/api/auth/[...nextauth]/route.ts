import type { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { getAuthOptions } from "@/lib/server/auth/next-auth-options";

export const runtime = "nodejs";

type Context = { params: Promise<{ nextauth: string[] }> };

// The options are built per process on first use: the secret may live in the database.
const handler = async (req: NextRequest, ctx: Context) => NextAuth(req, ctx, await getAuthOptions()) as Promise<Response>;

// GET /api/auth/(action): next-auth web sign-in (csrf, session, providers)
export const GET = handler;

// POST /api/auth/(action): next-auth web sign-in (callback/credentials, signout)
export const POST = handler;
