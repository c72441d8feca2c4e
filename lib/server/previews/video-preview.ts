import "server-only";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { getBlobStore } from "@/lib/server/blobs/stores";
import type { StoredBlob } from "@/lib/storage/blob-store";
import { defaultMemoryBytes, defaultTimeoutMs, runSandboxed, withWorkDir } from "./converter";
import { inputFor } from "./converted-input";

/** Videos past this size get a poster but no web rendition (PREVIEW_VIDEO_MAX_BYTES). */
export const maxVideoBytes = () => Number(process.env.PREVIEW_VIDEO_MAX_BYTES ?? 2 * 1024 * 1024 * 1024);
const MAX_POSTER_OUTPUT = 20 * 1024 * 1024;
const MAX_RENDITION_OUTPUT = 4 * 1024 * 1024 * 1024;

const PLAYABLE_CONTAINERS = /\b(mp4|mov|webm|matroska)\b/;
const PLAYABLE_VIDEO = new Set(["h264", "vp8", "vp9", "av1"]);
const PLAYABLE_AUDIO = new Set(["aac", "mp3", "opus", "vorbis"]);

type Probe = { format?: { format_name?: string; duration?: string }; streams?: { codec_type?: string; codec_name?: string }[] };

/**
 * A video's poster (a frame a second in, or the first of a shorter one, as PNG) and, when
 * browsers cannot play the original (container or codecs), a web-playable MP4 (H.264 and AAC, at
 * most 1280 px wide, fast start). ffprobe and ffmpeg run in the converter sandbox.
 */
export async function videoPreview(blobId: string, size: number, fileName: string): Promise<{ poster: Buffer; rendition: StoredBlob | null }> {
  return withWorkDir(async (dir) => {
    const input = await inputFor(blobId, fileName, dir);
    // Probing reads headers and taking a frame decodes one: seconds and a few hundred MB each.
    const limits = { timeoutMs: defaultTimeoutMs(30_000), maxOutputBytes: MAX_POSTER_OUTPUT, memoryBytes: defaultMemoryBytes(1024) };
    const probe = JSON.parse(
      (await runSandboxed("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,codec_name:format=format_name,duration", "-of", "json", input.path], dir, { ...limits, memoryBytes: defaultMemoryBytes(512) }, input.binds)) || "{}",
    ) as Probe;
    const streams = probe.streams ?? [];
    const video = streams.find((s) => s.codec_type === "video");
    if (!video) throw new Error("ffprobe found no video stream in this file");
    const duration = Number(probe.format?.duration ?? 0);
    const at = duration > 2 ? "1" : "0";
    await runSandboxed("ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-ss", at, "-i", input.path, "-frames:v", "1", "-vf", "scale='min(640,iw)':-2", "-y", "/work/poster.png"], dir, limits, input.binds);
    const poster = await fs.readFile(path.join(dir, "poster.png")).catch(() => null);
    if (!poster?.length) throw new Error("ffmpeg could not take a frame of this video");

    const audio = streams.filter((s) => s.codec_type === "audio");
    const playable =
      PLAYABLE_CONTAINERS.test(probe.format?.format_name ?? "") && PLAYABLE_VIDEO.has(video.codec_name ?? "") && audio.every((s) => PLAYABLE_AUDIO.has(s.codec_name ?? ""));
    if (playable || size > maxVideoBytes()) return { poster, rendition: null };
    await runSandboxed(
      "ffmpeg",
      ["-nostdin", "-hide_banner", "-loglevel", "error", "-i", input.path, "-map", "0:v:0", "-map", "0:a:0?", "-c:v", "libx264", "-preset", "veryfast", "-crf", "28", "-pix_fmt", "yuv420p", "-vf", "scale='min(1280,iw)':-2", "-c:a", "aac", "-b:a", "128k", "-movflags", "+faststart", "-y", "/work/web.mp4"],
      dir,
      // Under the job queue's 5-minute claim, so that no second worker starts the same transcoding;
      // the encoder's threads and frames need more room than one decoded frame.
      { timeoutMs: defaultTimeoutMs(4 * 60_000), maxOutputBytes: MAX_RENDITION_OUTPUT, memoryBytes: defaultMemoryBytes(2048) },
      input.binds,
    );
    return { poster, rendition: await getBlobStore().put(createReadStream(path.join(dir, "web.mp4"))) };
  });
}
