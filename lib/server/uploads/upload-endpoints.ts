import "server-only";
import { fileParams, fileResponse } from "@/lib/contracts/files";
import { replaceContentQuery, uploadQuery, uploadResponse } from "@/lib/contracts/uploads";
import { depositAnswers, ulinkKeyParams } from "@/lib/contracts/ulinks";
import { presentFiles } from "../files/present-files";
import { modeOf } from "../present/mode";
import { created, endpoint } from "../http/route";
import { appUrl } from "../mail/app-url";
import { depositThroughUlink } from "../ulinks/deposit-through-ulink";
import { replaceContent } from "./replace-content";
import { uploadFile, type UploadOutcome } from "./upload-file";

// The upload operations, mounted twice: by their app/api route files (the contract's table of
// contents, and Next for the web client) and by server.ts on the raw request, where bytes move
// without Next's web streams (issue 12). One definition, so the two cannot drift apart.

/** A chunk that completes nothing answers "OK", a report the missing chunks, a last one the File. */
function chunkedAnswer(outcome: Exclude<UploadOutcome, { kind: "file" }>) {
  if (outcome.kind === "missing") return outcome.missing.map((missing) => ({ missing }));
  return new Response("OK", { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

/** POST /api/file/upload: multipart upload, whole (201 File) or chunked ("OK", [{missing}], then 201 File). */
export const uploadFileEndpoint = endpoint({ query: uploadQuery, response: uploadResponse }, async ({ ctx, query, source }) => {
  const outcome = await uploadFile(ctx, source, { meta: query.meta, mode: modeOf(query) });
  return outcome.kind === "file" ? created(outcome.file) : chunkedAnswer(outcome);
});

/** PUT /api/file/(fileId)/upload: the current version's content replaced (application/octet-stream), no new version. */
export const replaceContentEndpoint = endpoint({ params: fileParams, query: replaceContentQuery, response: fileResponse }, async ({ ctx, params, query, source }) => {
  const { file, version, folder, rights } = await replaceContent(ctx, params.fileId, source);
  const [json] = await presentFiles(ctx, [{ file, version, folder }], modeOf(query), { rights: new Map([[folder.id, rights]]) });
  return json;
});

/** POST /api/ulink/key/(key)/upload (no token; access_token when protected): a deposit, whole (201) or chunked. */
export const depositEndpoint = endpoint({ auth: "link", link: { kind: "ulink" }, params: ulinkKeyParams, response: depositAnswers }, async ({ ctx, req, source }) => {
  const outcome = await depositThroughUlink(ctx, ctx.link, source, appUrl(req));
  return outcome.kind === "file" ? created(outcome.deposit) : chunkedAnswer(outcome);
});
