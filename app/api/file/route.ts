import { createFileBody, createFileQuery, fileResponse } from "@/lib/contracts/files";
import { createFile } from "@/lib/server/files/create-file";
import { modeOf } from "@/lib/server/present/mode";
import { otherMethods } from "@/lib/server/http/methods";
import { created, route } from "@/lib/server/http/route";

export const runtime = "nodejs";

// POST /api/file: create an empty file or version, clone an earlier version by `hash` (200), or `copy` a file
export const POST = route({ query: createFileQuery, body: createFileBody, response: { 200: fileResponse, 201: fileResponse } }, async ({ ctx, query, body }) => {
  const result = await createFile(ctx, body, { copy: query.copy, mode: modeOf(query) });
  return result.created ? created(result.file) : result.file;
});

export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST });
