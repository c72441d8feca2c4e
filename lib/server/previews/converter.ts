import "server-only";
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/** The tools the previews and texts jobs call, where they are looked for (PREVIEW_* variables override them). */
export const TOOLS = {
  LibreOffice: () => process.env.PREVIEW_SOFFICE ?? "/usr/bin/soffice",
  tesseract: () => process.env.PREVIEW_TESSERACT ?? "/usr/bin/tesseract",
  pdftoppm: () => process.env.PREVIEW_PDFTOPPM ?? "/usr/bin/pdftoppm",
  pdftotext: () => process.env.PREVIEW_PDFTOTEXT ?? "/usr/bin/pdftotext",
  pdfseparate: () => process.env.PREVIEW_PDFSEPARATE ?? "/usr/bin/pdfseparate",
  pdfunite: () => process.env.PREVIEW_PDFUNITE ?? "/usr/bin/pdfunite",
  ffmpeg: () => process.env.PREVIEW_FFMPEG ?? "/usr/bin/ffmpeg",
  ffprobe: () => process.env.PREVIEW_FFPROBE ?? "/usr/bin/ffprobe",
  bubblewrap: () => process.env.PREVIEW_BWRAP ?? "/usr/bin/bwrap",
} as const;
export type ToolName = keyof typeof TOOLS;

/** Debian's package of each tool, for the message saying what to install. */
const PACKAGES: Record<ToolName, string> = {
  LibreOffice: "libreoffice-core libreoffice-writer libreoffice-calc libreoffice-impress",
  tesseract: "tesseract-ocr tesseract-ocr-eng tesseract-ocr-fra tesseract-ocr-deu tesseract-ocr-spa tesseract-ocr-ita tesseract-ocr-por tesseract-ocr-chi-sim",
  pdftoppm: "poppler-utils",
  pdftotext: "poppler-utils",
  pdfseparate: "poppler-utils",
  pdfunite: "poppler-utils",
  ffmpeg: "ffmpeg",
  ffprobe: "ffmpeg",
  bubblewrap: "bubblewrap",
};

/** A tool is missing: the preview's state says which (api.md's `none`/`failed` with the reason). */
export class MissingTool extends Error {
  constructor(readonly tool: ToolName) {
    super(`${tool} is not installed on the server (Debian: apt-get install ${PACKAGES[tool]})`);
  }
}

export const isInstalled = (tool: ToolName) => {
  try {
    accessSync(TOOLS[tool](), constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

export type SandboxLimits = {
  /** Killed past this (PREVIEW_TIMEOUT_MS sets every step's). */
  timeoutMs: number;
  /** No file it writes may grow past this (RLIMIT_FSIZE). */
  maxOutputBytes: number;
  /** No process of it may map more than this (RLIMIT_AS); PREVIEW_MEMORY_MB sets every tool's, 1 GiB when neither does. */
  memoryBytes?: number;
  /** Variables the tool runs with, besides the sandbox's few (OMP_THREAD_LIMIT for Tesseract). */
  env?: Record<string, string>;
};

/** The default time a conversion may take; PREVIEW_TIMEOUT_MS sets it. */
export const defaultTimeoutMs = (fallback: number) => Number(process.env.PREVIEW_TIMEOUT_MS ?? fallback);

/**
 * The memory ceiling of a converter's processes, each (RLIMIT_AS: the address space, which is
 * what a process can be refused, where resident memory can only be watched). A one-page document
 * converts within 400 MB; a 357 KB docx that unzips to 100 MB of paragraphs held 2.7 GB of
 * LibreOffice for two minutes. PREVIEW_MEMORY_MB sets it for every tool.
 */
export const defaultMemoryBytes = (fallbackMb: number) => {
  const mb = Number(process.env.PREVIEW_MEMORY_MB);
  return (Number.isFinite(mb) && mb > 0 ? mb : fallbackMb) * 1024 * 1024;
};

/**
 * Runs a converter on files of a work folder of its own, in a bubblewrap sandbox: no network
 * (its own, empty network namespace), no view of the filesystem but the system's programs and
 * settings (read-only), an empty /tmp and the work folder (at /work, its only writable place),
 * so it never sees the data folder beyond the input it was given (bound read-only); other namespaces (processes,
 * IPC, users) of its own, a new session, and death with its parent. Bounded in time (the whole
 * process group is killed), in the size of what it writes and in memory (each of its processes is
 * refused memory past the ceiling, and stops). Resolves with its output, or rejects saying why it
 * stopped.
 */
export async function runSandboxed(tool: ToolName, args: string[], workDir: string, limits: SandboxLimits, inputs: { source: string; target: string }[] = []): Promise<string> {
  if (!isInstalled("bubblewrap")) throw new MissingTool("bubblewrap");
  if (!isInstalled(tool)) throw new MissingTool(tool);
  const memoryBytes = Math.max(64 * 1024 * 1024, Math.floor(limits.memoryBytes ?? defaultMemoryBytes(1024)));
  const sandbox = [
    "--unshare-all",
    "--die-with-parent",
    "--new-session",
    "--ro-bind", "/usr", "/usr",
    "--ro-bind", "/etc", "/etc",
    "--symlink", "usr/lib", "/lib",
    "--symlink", "usr/lib64", "/lib64",
    "--symlink", "usr/bin", "/bin",
    "--symlink", "usr/sbin", "/sbin",
    "--proc", "/proc",
    "--dev", "/dev",
    "--tmpfs", "/tmp",
    "--bind", workDir, "/work",
    // The input itself, read-only, where the store keeps it on disk (no copy of a large video).
    ...inputs.flatMap((input) => ["--ro-bind", input.source, input.target]),
    "--chdir", "/work",
    "--clearenv",
    "--setenv", "HOME", "/work",
    "--setenv", "PATH", "/usr/bin:/bin",
    "--setenv", "LANG", "C.UTF-8",
    // glibc reserves 64 MB of address space per thread arena: a threaded encoder would spend its
    // ceiling on reservations rather than on memory it uses.
    "--setenv", "MALLOC_ARENA_MAX", "2",
    ...Object.entries(limits.env ?? {}).flatMap(([name, value]) => ["--setenv", name, value]),
    "--",
    "/usr/bin/prlimit", `--fsize=${Math.max(1, Math.floor(limits.maxOutputBytes))}`, `--as=${memoryBytes}`, "--",
    TOOLS[tool](),
    ...args,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(TOOLS.bubblewrap(), sandbox, { stdio: ["ignore", "pipe", "pipe"], detached: true });
    const memory = watchPeakMemory(child.pid);
    let output = "";
    const keep = (chunk: Buffer) => {
      if (output.length < 20_000) output += chunk.toString();
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {}
    }, limits.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      memory.stop();
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const peak = memory.stop();
      if (timedOut) return reject(new Error(`${tool} took longer than ${Math.round(limits.timeoutMs / 1000)} s and was stopped`));
      if (code === 0) return resolve(output);
      const tooLarge = signal === "SIGXFSZ" || code === 153 || /File size limit exceeded/i.test(output);
      if (tooLarge) return reject(new Error(`${tool} wrote more than ${limits.maxOutputBytes} bytes and was stopped`));
      // Refused memory, a tool aborts, crashes or gives up: it failed near its ceiling, or said so.
      if (peak >= memoryBytes * 0.85 || OUT_OF_MEMORY.test(output)) {
        return reject(new Error(`${tool} needed more than its memory ceiling of ${Math.round(memoryBytes / 1024 / 1024)} MB and was stopped`));
      }
      reject(new Error(`${tool} failed (${signal ?? `exit ${code}`}): ${output.trim().split("\n").slice(-3).join(" ").slice(0, 300)}`));
    });
  });
}

const OUT_OF_MEMORY = /bad_alloc|cannot allocate|out of memory|malloc of size \d+ failed/i;
const SAMPLE_MS = 200;

/**
 * Samples the highest address space (VmPeak) any process of the sandbox has reached, so that a
 * tool stopped by its ceiling can be told from one that failed on its own: the kernel only
 * refuses the allocation, and the tool then aborts in its own way. Reads /proc (the sandbox's
 * processes are visible from outside its namespace); where the kernel does not list children,
 * it reports 0 and the output alone decides.
 */
function watchPeakMemory(rootPid: number | undefined): { stop: () => number } {
  let peak = 0;
  let stopped = false;
  const sample = async () => {
    if (stopped || !rootPid) return;
    for (const pid of await treeOf(rootPid)) {
      const status = await fs.readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
      const kb = Number(/^VmPeak:\s+(\d+) kB/m.exec(status)?.[1] ?? 0);
      peak = Math.max(peak, kb * 1024);
    }
  };
  const timer = setInterval(() => void sample().catch(() => {}), SAMPLE_MS);
  timer.unref();
  return {
    stop: () => {
      stopped = true;
      clearInterval(timer);
      return peak;
    },
  };
}

async function treeOf(pid: number): Promise<number[]> {
  const tasks = await fs.readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  const children = await Promise.all(tasks.map((tid) => fs.readFile(`/proc/${pid}/task/${tid}/children`, "utf8").catch(() => "")));
  const direct = children.flatMap((line) => line.split(" ").filter(Boolean).map(Number));
  return [pid, ...(await Promise.all(direct.map(treeOf))).flat()];
}

/** A work folder for one conversion, outside the data folder, removed whatever happens. */
export async function withWorkDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await fs.mkdtemp(path.join(process.env.PREVIEW_WORK_DIR ?? os.tmpdir(), "coffre-convert-"));
  try {
    return await fn(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
