import "server-only";
import { uploadFieldsObject } from "@/lib/contracts/uploads";
import type { Auth } from "../http/route";
import { jsonSchema } from "./json-schema";

/**
 * Operations whose bodies are not JSON or that no route() describes: the multipart uploads (their
 * route files parse no JSON body), tus, and the downloads and zips served by the Node server in
 * front of Next (pages/api for `next dev`). `fromRoute`: the route file gives the rest
 * (auth, params, query); otherwise this entry is the whole operation.
 */
export type RawOperation = {
  path: string;
  method: string;
  fromRoute: boolean;
  auth: Auth;
  summary: string;
  requestBody?: Record<string, unknown>;
  responses?: Record<string, unknown>;
};

const file = { description: "The file, in the full mode when `full` is set", content: { "application/json": { schema: { type: "object" } } } };
const binary = { type: "string", contentMediaType: "application/octet-stream" };

const multipart = () => ({
  required: true,
  content: {
    "multipart/form-data": {
      schema: {
        ...jsonSchema(uploadFieldsObject),
        properties: { ...(jsonSchema(uploadFieldsObject).properties as object), targetFile: { ...binary, description: "The file, or one chunk of it. Send the text parts before it." } },
        required: ["targetFile"],
      },
    },
  },
});

const uploadAnswers = {
  "201": file,
  "200": { description: 'Chunked: "OK" while chunks are missing, or `[{missing: [..]}]` after a `report`', content: { "application/json": { schema: {} } } },
  "413": { description: "Too large", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
  "423": { description: "The file is locked by another user", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
  "507": { description: "A quota would be exceeded", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
};

const bytes = (what: string) => ({
  "200": { description: what, headers: { ETag: { schema: { type: "string" } }, "Content-Length": { schema: { type: "integer" } } }, content: { "application/octet-stream": { schema: binary } } },
  "206": { description: "One byte range (`Range: bytes=a-b`)", content: { "application/octet-stream": { schema: binary } } },
  "304": { description: "Unchanged (`If-None-Match` matched the ETag, the MD5)" },
  "416": { description: "The range starts past the end", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
});

const tusAnswer = (description: string, status = "204") => ({ [status]: { description, headers: { "Tus-Resumable": { schema: { type: "string", const: "1.0.0" } } } } });

export const RAW_OPERATIONS: RawOperation[] = [
  { path: "/api/file/upload", method: "POST", fromRoute: true, auth: "user", summary: "Upload a file, whole or in chunks (multipart)", requestBody: multipart(), responses: uploadAnswers },
  { path: "/api/file/{fileId}/upload", method: "PUT", fromRoute: true, auth: "user", summary: "Replace a file's content: a new version (multipart)", requestBody: multipart(), responses: uploadAnswers },
  { path: "/api/file/{fileId}/upload", method: "PATCH", fromRoute: true, auth: "user", summary: "Same as PUT", requestBody: multipart(), responses: uploadAnswers },
  { path: "/api/ulink/key/{key}/upload", method: "POST", fromRoute: true, auth: "link", summary: "Deposit a file through a drop link (multipart; `access_token` when protected)", requestBody: multipart(), responses: uploadAnswers },
  { path: "/api/file/{fileId}/download", method: "GET", fromRoute: false, auth: "user", summary: "Download a file (query `latest`; header `Range`)", responses: bytes("The file's bytes") },
  { path: "/api/file/download", method: "GET", fromRoute: false, auth: "none", summary: "Download with a file token (`token`; no other authentication)", responses: bytes("The file's bytes") },
  { path: "/api/zip/share/{key}", method: "GET", fromRoute: false, auth: "link", summary: "A link share as one zip stream (`access_token` when protected)", responses: { "200": { description: "A zip", content: { "application/zip": { schema: binary } } } } },
  { path: "/api/zip/folder/{folderId}", method: "GET", fromRoute: false, auth: "user", summary: "A folder and its subtree as one zip stream; files without the download right are listed in `_not-included.txt`", responses: { "200": { description: "A zip", content: { "application/zip": { schema: binary } } } } },
  { path: "/api/zip", method: "GET", fromRoute: false, auth: "user", summary: "A selection as one zip stream (`files`: File ids, `folders`: folder ids, comma-separated, at most 1000; `name`)", responses: { "200": { description: "A zip", content: { "application/zip": { schema: binary } } } } },
  {
    path: "/api/tus",
    method: "POST",
    fromRoute: false,
    auth: "user",
    summary: "tus 1.0.0 creation: `Upload-Length`, `Upload-Metadata: token <base64 sessionKey from POST /api/file/tus>`",
    responses: { "201": { description: "Created; `Location` is the upload's address" } },
  },
  { path: "/api/tus/{uploadId}", method: "HEAD", fromRoute: false, auth: "user", summary: "tus offset, for resuming", responses: tusAnswer("`Upload-Offset` and `Upload-Length`", "200") },
  {
    path: "/api/tus/{uploadId}",
    method: "PATCH",
    fromRoute: false,
    auth: "user",
    summary: "tus bytes at `Upload-Offset` (`Content-Type: application/offset+octet-stream`)",
    requestBody: { required: true, content: { "application/offset+octet-stream": { schema: binary } } },
    responses: tusAnswer("Received; `Upload-Offset` is the new offset"),
  },
  { path: "/api/tus/{uploadId}", method: "DELETE", fromRoute: false, auth: "user", summary: "tus termination", responses: tusAnswer("Terminated") },
];
