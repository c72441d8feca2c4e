import { z } from "zod";
import { flag, id } from "@/lib/contracts/common";

export const previewParams = z.object({ fileId: id });

/**
 * GET /mixer/(fileId): `state=1` asks for the state only; `token` is the File's thumb_token; `key`
 * (with the link's `access_token` when protected) reads a thumbnail through a link share.
 */
export const thumbnailQuery = z.object({ state: flag, token: z.string().max(200).optional(), key: z.string().min(1).max(200).optional() });
export const thumbnailStateResponse = z.object({ state: z.enum(["pending", "preparing", "streamable", "available", "failed"]) });
export type ThumbnailStateResponse = z.infer<typeof thumbnailStateResponse>;

/** GET /preview/(fileId) and its content: `token` is a file token of type preview. */
export const previewQuery = z.object({ token: z.string().max(200).optional() });
export const previewContentQuery = z.object({ token: z.string().min(1).max(200) });

/** GET /file/(fileId)/infos: the number of pages. */
export const documentInfosResponse = z.object({ length: z.number().int().nonnegative() });
