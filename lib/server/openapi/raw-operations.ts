import "server-only";
import type { z } from "zod";
import { downloadParams, downloadQuery, tokenDownloadQuery, uploadFieldsObject } from "@/lib/contracts/uploads";
import { zipFolderParams, zipSelectionQuery } from "@/lib/contracts/zip";
import type { Auth } from "../http/route";
import { jsonSchema } from "./json-schema";
import { header, type Parameter } from "./parameters";

/**
 * Operations whose bodies are not JSON or that no route() describes: the multipart and
 * octet-stream uploads (their route files parse no JSON body), tus, and the downloads and zips
 * served by the Node server in front of Next (pages/api for `next dev`). `fromRoute`: the route
 * file gives the rest (auth, params, query, success schemas); otherwise this entry is the whole operation.
 */
export type RawOperation = {
  path: string;
  method: string;
  fromRoute: boolean;
  auth: Auth;
  summary: string;
  params?: z.ZodType;
  query?: z.ZodType;
  headers?: Parameter[];
  requestBody?: Record<string, unknown>;
  /** Success answers besides (or, without a route, instead of) the route's `response`. */
  responses?: Record<string, unknown>;
  /** Error statuses besides the ones every operation shares. */
  errors?: number[];
};

const binary = { type: "string", contentMediaType: "application/octet-stream" };

const multipart = () => {
  const fields = jsonSchema(uploadFieldsObject);
  return {
    required: true,
    content: {
      "multipart/form-data": {
        schema: { ...fields, properties: { ...(fields.properties as object), targetFile: { ...binary, description: "The file, or one chunk of it. Send the text parts before it." } }, required: ["targetFile"] },
        encoding: { targetFile: { contentType: "application/octet-stream" } },
      },
    },
  };
};

const chunkOk = { "200": { description: 'A chunk received while others are missing: the text "OK" (or `[{missing}]` after a `report`, as JSON)', content: { "text/plain": { schema: { type: "string", const: "OK" } } } } };

const bytes = (what: string) => ({
  "200": {
    description: what,
    headers: { ETag: { description: "The MD5 of the content, quoted", schema: { type: "string" } }, "Content-Length": { schema: { type: "integer" } }, "Accept-Ranges": { schema: { type: "string", const: "bytes" } } },
    content: { "application/octet-stream": { schema: binary } },
  },
  "206": { description: "One byte range (`Range: bytes=a-b`)", headers: { "Content-Range": { schema: { type: "string" } } }, content: { "application/octet-stream": { schema: binary } } },
  "304": { description: "Unchanged: `If-None-Match` matched the ETag" },
});
const zip = { "200": { description: "A zip, streamed", content: { "application/zip": { schema: binary } } } };

const DOWNLOAD_HEADERS = [
  header("Range", "One byte range, `bytes=<start>-<end>` (end optional, `bytes=0-1023`): answered 206 with `Content-Range`"),
  header("If-None-Match", "The ETag of a copy already held (the quoted MD5): answered 304 when it still matches"),
];
const TUS = header("Tus-Resumable", "The tus protocol version", "1.0.0", true);

export const RAW_OPERATIONS: RawOperation[] = [
  { path: "/api/file/upload", method: "POST", fromRoute: true, auth: "user", summary: "Upload a file, whole or in chunks (multipart)", requestBody: multipart(), responses: chunkOk, errors: [413, 415, 423, 507] },
  {
    path: "/api/file/{fileId}/upload",
    method: "PUT",
    fromRoute: true,
    auth: "user",
    summary: "Replace the current version's content (the raw bytes as application/octet-stream; no new version)",
    headers: [header("Content-Length", "The size of the content, checked against the quotas before a byte is written")],
    requestBody: { required: true, content: { "application/octet-stream": { schema: binary } } },
    errors: [413, 415, 423, 507],
  },
  { path: "/api/ulink/key/{key}/upload", method: "POST", fromRoute: true, auth: "link", summary: "Deposit a file through a drop link (multipart; `access_token` when protected)", requestBody: multipart(), responses: chunkOk, errors: [413, 415, 507] },
  { path: "/api/file/{fileId}/download", method: "GET", fromRoute: false, auth: "user", summary: "Download a file", params: downloadParams, query: downloadQuery, headers: DOWNLOAD_HEADERS, responses: bytes("The file's bytes"), errors: [416, 423] },
  {
    path: "/api/file/download",
    method: "GET",
    fromRoute: false,
    auth: "none",
    summary: "Download with a file token (from `POST /api/token/file/{fileId}/download`; no other authentication)",
    query: tokenDownloadQuery,
    headers: DOWNLOAD_HEADERS,
    responses: bytes("The file's bytes"),
    errors: [403, 416, 423],
  },
  { path: "/api/zip/share/{key}", method: "GET", fromRoute: false, auth: "link", summary: "A link share as one zip stream (`access_token` when protected)", responses: zip, errors: [413] },
  { path: "/api/zip/folder/{folderId}", method: "GET", fromRoute: false, auth: "user", summary: "A folder and its subtree as one zip stream; files without the download right are listed in `_not-included.txt`", params: zipFolderParams, responses: zip, errors: [413] },
  { path: "/api/zip", method: "GET", fromRoute: false, auth: "user", summary: "A selection as one zip stream", query: zipSelectionQuery, responses: zip, errors: [413] },
  {
    path: "/api/tus",
    method: "POST",
    fromRoute: false,
    auth: "user",
    summary: "tus 1.0.0 creation, for a session opened by `POST /api/file/tus`",
    headers: [
      TUS,
      header("Upload-Length", "The size of the whole file in bytes", "1048576", true),
      header("Upload-Metadata", "`token <base64 of the sessionKey from POST /api/file/tus>` (tus metadata: comma-separated `key base64value` pairs)", "token c2Vzc2lvbktleQ==", true),
    ],
    responses: { "201": { description: "Created; `Location` is the upload's address", headers: { Location: { schema: { type: "string" } }, "Tus-Resumable": { schema: { type: "string", const: "1.0.0" } } } } },
    errors: [413, 507],
  },
  {
    path: "/api/tus/{uploadId}",
    method: "HEAD",
    fromRoute: false,
    auth: "user",
    summary: "tus offset, for resuming",
    headers: [TUS],
    responses: { "200": { description: "`Upload-Offset` and `Upload-Length`", headers: { "Upload-Offset": { schema: { type: "integer" } }, "Upload-Length": { schema: { type: "integer" } } } } },
  },
  {
    path: "/api/tus/{uploadId}",
    method: "PATCH",
    fromRoute: false,
    auth: "user",
    summary: "tus bytes at `Upload-Offset`; the last ones finish the upload (then `POST /api/file/tus` with the token returns the File)",
    headers: [TUS, header("Upload-Offset", "Where these bytes go: the offset HEAD answered", "0", true)],
    requestBody: { required: true, content: { "application/offset+octet-stream": { schema: binary } } },
    responses: { "204": { description: "Received; `Upload-Offset` is the new offset", headers: { "Upload-Offset": { schema: { type: "integer" } } } } },
    errors: [409, 413, 415, 507],
  },
  { path: "/api/tus/{uploadId}", method: "DELETE", fromRoute: false, auth: "user", summary: "tus termination", headers: [TUS], responses: { "204": { description: "Terminated" } } },
];
