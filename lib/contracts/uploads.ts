import { z } from "zod";
import { flag, id } from "@/lib/contracts/common";
import { fileResponse } from "./files";

/** Form fields and JSON bodies carry ids as numbers or numeric strings. */
const formId = z.union([z.number(), z.string().trim()]).pipe(z.coerce.number<string | number>().int().positive().max(2_147_483_647));
const count = (max: number) => z.union([z.number(), z.string().trim()]).pipe(z.coerce.number<string | number>().int().min(0).max(max));
const bytes = count(Number.MAX_SAFE_INTEGER);
const md5 = z
  .string()
  .trim()
  .regex(/^[0-9a-fA-F]{32}$/, "An MD5 of 32 hexadecimal characters")
  .transform((h) => h.toLowerCase());
/** A form flag: present and not 0/false. */
const formFlag = z
  .string()
  .optional()
  .transform((v) => v !== undefined && !["0", "false"].includes(v.trim().toLowerCase()));

/** POST /file/upload query. */
export const uploadQuery = z.object({ meta: flag, full: flag, light: flag });

/**
 * The text parts of POST /file/upload (rest-interface: Upload). `chunk`/`chunks` switch to the
 * chunked protocol; `targetPath` is a relative sub-path below `folderId` to create if missing.
 * A chunked upload must also send `fileSize` (the total, reserved against the quotas when the
 * upload opens) and, with more than one chunk, `chunksSize`; the services refuse it otherwise
 * (receive-chunk.ts, expectedChunkBytes). Send the text parts before `targetFile`: the chunk is
 * then bounded while it streams.
 */
export const uploadFieldsObject = z.object({
  folderId: formId.optional(),
  targetPath: z.string().max(4096).optional(),
  chunk: count(1_000_000).optional(),
  chunks: count(1_000_000).pipe(z.number().min(1)).optional(),
  chunksSize: bytes.pipe(z.number().min(1)).optional(),
  fileSize: bytes.optional(),
  fileHash: z.union([md5, z.literal("")]).optional().transform((h) => h || undefined),
  report: formFlag,
});
export const uploadFields = uploadFieldsObject
  .refine((f) => (f.chunk === undefined) === (f.chunks === undefined), { message: "chunk and chunks go together", path: ["chunks"] })
  .refine((f) => f.chunk === undefined || f.chunks === undefined || f.chunk < f.chunks, { message: "chunk must be below chunks", path: ["chunk"] });
export type UploadFields = z.infer<typeof uploadFields>;

/** The answer to `report` and to a last chunk that leaves holes: `[{missing: <index>}]`. */
export const missingChunksResponse = z.array(z.object({ missing: z.number() }));

/** POST /file/tus (api.md): `{name, target, size}` opens a session, `{token}` finalises it. */
export const openTusBody = z.object({ name: z.string().max(1024), target: formId, size: bytes });
export const finishTusBody = z.object({ token: z.string().min(16).max(200) });
export const tusBody = z.union([finishTusBody, openTusBody]);
export type OpenTusBody = z.infer<typeof openTusBody>;
export const tusSessionResponse = z.array(z.object({ sessionKey: z.string() }));

/** PUT /file/(fileId)/upload query. */
export const replaceContentQuery = z.object({ full: flag, light: flag });

/**
 * GET /file/(fileId)/download and GET /file/download?token=. `searchable=1` (by id only): the
 * searchable PDF OCR made of a scan (an image or a PDF without a text layer), the original untouched.
 */
export const downloadParams = z.object({ fileId: id });
export const downloadQuery = z.object({ latest: flag, searchable: flag });
export const tokenDownloadQuery = z.object({ token: z.string().min(1).max(200), latest: flag });

/** POST /file/tus: 201 with the session ([{sessionKey}]) when opening, the File when finalising. */
export const tusResponse = z.union([fileResponse, tusSessionResponse]);
/** POST /file/upload: 201 File, or 200 with the missing chunks; a chunk's "OK" is text/plain. */
export const uploadResponse = { 201: fileResponse, 200: missingChunksResponse };
