import { beforeAll, describe, expect, it } from "vitest";
import * as foldersRoute from "@/app/api/folders/route";
import * as objectPathRoute from "@/app/api/objectpath/route";
import * as portalRoute from "@/app/api/root/portal/[filter]/route";
import * as rootRoute from "@/app/api/root/[type]/route";
import * as rootsRoute from "@/app/api/roots/route";
import { folderResponse, rootResponse } from "@/lib/contracts/folders";
import { createAdmin, createTestGroup, createTestUser, unique } from "../../helpers/factories";
import { createFolder, grantRight, uploadText } from "../../helpers/files";
import { call, expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import { OPEN_TIMEOUT, openDatabase } from "../folders/fixtures";

beforeAll(openDatabase, OPEN_TIMEOUT);

type Query = Record<string, string | number>;
const listFolders = (token: string, query: Query = {}) => call(foldersRoute.GET, { path: "/api/folders", token, query });
const listRoots = (token: string) => call(rootsRoute.GET, { path: "/api/roots", token });
const root = (token: string, type: string, query: Query = {}) => call(rootRoute.GET, { path: `/api/root/${type}`, params: { type }, token, query });
const portal = (token: string, filter: string, query: Query = {}) => call(portalRoute.GET, { path: `/api/root/portal/${filter}`, params: { filter }, token, query });
const byPath = (token: string, object: string, query: Query = {}) => call(objectPathRoute.GET, { path: "/api/objectpath", token, query: { object, ...query } });
const names = (list: { name: string }[]) => list.map((f) => f.name);

/**
 * A user who sees: their private space, one company folder through a group, one they may not
 * browse, and folders of a colleague's private space shared at two levels (only the top shows).
 */
async function createSpaces() {
  const admin = await createAdmin();
  const user = await createTestUser();
  const colleague = await createTestUser();
  const group = await createTestGroup({ members: [user.id] });
  const tag = unique("");
  const visible = await createFolder(admin, 0, `Company ${tag}`);
  const invisible = await createFolder(admin, 0, `Board ${tag}`);
  await grantRight(visible.id, group.id, { read: true });
  const project = await createFolder(colleague, colleague.privateRootId!, `Project ${tag}`);
  const nested = await createFolder(colleague, project.id, "Nested");
  await grantRight(project.id, user.id, { read: true });
  await grantRight(nested.id, user.id, { read: true, write: true });
  const payroll = await createFolder(admin, invisible.id, `Payroll ${tag}`);
  await grantRight(payroll.id, user.id, { read: true });
  return { admin, user, colleague, group, tag, visible, invisible, project, nested, payroll };
}

describe("GET /api/folders", () => {
  it("lists the private space, the browsable company folders, then the top-most shared folders", async () => {
    const { user, tag, visible, project, payroll } = await createSpaces();
    await createFolder(user, user.privateRootId!, "Mine");
    const res = await listFolders(user.token);
    expect(res.status, res.text).toBe(200);
    const list = res.body.map((f: unknown) => folderResponse.parse(f));
    const ids = list.map((f: { id: number }) => f.id);
    expect(ids[0]).toBe(user.privateRootId);
    expect(ids).toContain(visible.id);
    expect(ids).toContain(project.id);
    expect(ids).toContain(payroll.id);
    expect(names(list).filter((n: string) => n.includes(tag))).toEqual([`Company ${tag}`, `Payroll ${tag}`, `Project ${tag}`]);
    expect(list[0].content).toBeUndefined();
    const deep = await listFolders(user.token, { depth: 1 });
    expect(names(deep.body[0].content.folders)).toEqual(["Mine"]);
  });

  it("requires a valid token", async () => {
    await expectAuthRequired(foldersRoute.GET, { path: "/api/folders" });
  });
});

describe("GET /api/roots", () => {
  it("lists the private and company roots as {id, name, type}", async () => {
    const { user, visible, invisible, project } = await createSpaces();
    const res = await listRoots(user.token);
    expect(res.status, res.text).toBe(200);
    const list = res.body.map((r: unknown) => rootResponse.strict().parse(r));
    expect(list[0]).toEqual({ id: user.privateRootId, name: "Private", type: "private" });
    expect(list).toContainEqual({ id: visible.id, name: visible.name, type: "company" });
    const ids = list.map((r: { id: number }) => r.id);
    expect(ids).not.toContain(invisible.id);
    expect(ids).not.toContain(project.id);
  });

  it("gives an administrator every company folder, and an external user no private root", async () => {
    const { admin, invisible } = await createSpaces();
    expect((await listRoots(admin.token)).body.map((r: { id: number }) => r.id)).toContain(invisible.id);
    const external = await createTestUser({ role: 1 });
    expect((await listRoots(external.token)).body.filter((r: { type: string }) => r.type === "private")).toEqual([]);
    await expectAuthRequired(rootsRoute.GET, { path: "/api/roots" });
  });
});

describe("GET /api/root/(type)", () => {
  it("private: the private root with its content", async () => {
    const user = await createTestUser();
    await createFolder(user, user.privateRootId!, "Docs");
    await uploadText(user, user.privateRootId!, "note.txt", "n");
    const res = await root(user.token, "private");
    expect(res.status, res.text).toBe(200);
    const body = folderResponse.parse(res.body);
    expect(body).toMatchObject({ id: user.privateRootId, name: "Private", parent_id: 0 });
    expect(names(body.content!.folders)).toEqual(["Docs"]);
    expect(names(body.content!.files)).toEqual(["note.txt"]);
    const external = await createTestUser({ role: 1 });
    expectError(await root(external.token, "private"), 404, "not_found");
  });

  it("company: a pseudo folder whose content lists the browsable company folders", async () => {
    const { user, admin, visible, invisible } = await createSpaces();
    const res = await root(user.token, "company");
    const body = folderResponse.parse(res.body);
    expect(body).toMatchObject({ id: 0, name: "Company", can_write: false });
    const ids = body.content!.folders.map((f) => f.id);
    expect(ids).toContain(visible.id);
    expect(ids).not.toContain(invisible.id);
    expect((await root(admin.token, "company")).body.can_write).toBe(true);
  });

  it("shared: only the top-most folders others shared, never the caller's own", async () => {
    const { user, colleague, project, nested, payroll } = await createSpaces();
    const own = await createFolder(user, user.privateRootId!, "Own");
    await grantRight(own.id, user.id, { read: true });
    const res = await root(user.token, "shared", { depth: 1 });
    expect(res.status, res.text).toBe(200);
    const body = folderResponse.parse(res.body);
    const ids = body.content!.folders.map((f) => f.id);
    expect(ids).toEqual(expect.arrayContaining([project.id, payroll.id]));
    expect(ids).not.toContain(nested.id);
    expect(ids).not.toContain(own.id);
    const projectNode = body.content!.folders.find((f) => f.id === project.id)!;
    expect(names(projectNode.content!.folders)).toEqual(["Nested"]);
    // The colleague shared nothing with themselves.
    expect(folderResponse.parse((await root(colleague.token, "shared")).body).content!.folders).toEqual([]);
  });

  it("shows a folder below a hidden one as shared again", async () => {
    const { user, project, nested } = await createSpaces();
    await grantRight(project.id, user.id, { browse: false });
    const ids = folderResponse.parse((await root(user.token, "shared")).body).content!.folders.map((f) => f.id);
    expect(ids).toContain(nested.id);
    expect(ids).not.toContain(project.id);
  });

  it("answers 400 for an unknown type and requires a token", async () => {
    const user = await createTestUser();
    expectError(await root(user.token, "public"), 400, "invalid_request");
    await expectAuthRequired(rootRoute.GET, { path: "/api/root/private", params: { type: "private" } });
  });
});

describe("GET /api/root/portal/(filter)", () => {
  it("me: the private space's folders; shared: the shared ones; all: both", async () => {
    const { user, project, payroll } = await createSpaces();
    await createFolder(user, user.privateRootId!, "Alpha");
    const me = await portal(user.token, "me");
    expect(me.status, me.text).toBe(200);
    expect(names(me.body)).toEqual(["Alpha"]);
    const shared = (await portal(user.token, "shared")).body.map((f: { id: number }) => f.id);
    expect(shared).toEqual(expect.arrayContaining([project.id, payroll.id]));
    const all = await portal(user.token, "all");
    expect(all.body[0].name).toBe("Alpha");
    expect(all.body.length).toBe(1 + shared.length);
    expectError(await portal(user.token, "mine"), 400, "invalid_request");
    await expectAuthRequired(portalRoute.GET, { path: "/api/root/portal/me", params: { filter: "me" } });
  });
});

describe("GET /api/objectpath", () => {
  it("finds files and folders from the roots GET /folders lists", async () => {
    const { user, visible, nested, tag } = await createSpaces();
    const docs = await createFolder(user, user.privateRootId!, "Docs");
    const { version } = await uploadText(user, docs.id, "Report.txt", "r");
    const file = await byPath(user.token, "/Private/Docs/report.txt");
    expect(file.status, file.text).toBe(200);
    expect(file.body.object).toMatchObject({ id: version.id, name: "Report.txt", parent_id: docs.id });
    const folder = await byPath(user.token, "/Private/docs/");
    expect(folder.body.object).toMatchObject({ id: docs.id, name: "Docs" });
    expect((await byPath(user.token, "/Private/Docs")).body.object.id).toBe(docs.id);
    expect((await byPath(user.token, `/Company ${tag}`)).body.object.id).toBe(visible.id);
    expect((await byPath(user.token, `/Project ${tag}/Nested/`)).body.object.id).toBe(nested.id);
    expectError(await byPath(user.token, "/Private/Docs/Report.txt/"), 404, "not_found");
    expectError(await byPath(user.token, "/Private/Nope/x"), 404, "not_found");
    expectError(await byPath(user.token, "/"), 404, "not_found");
  });

  it("answers 404 for what the caller may not browse or read", async () => {
    const { user, colleague, project, tag, invisible } = await createSpaces();
    const secret = await createFolder(colleague, project.id, "Secret");
    await grantRight(secret.id, user.id, { browse: false });
    expectError(await byPath(user.token, `/Project ${tag}/Secret/`), 404, "not_found");
    expectError(await byPath(user.token, `/Board ${tag}/`), 404, "not_found");
    expect(invisible.id).toBeGreaterThan(0);
    await uploadText(colleague, project.id, "plan.txt", "p");
    expect((await byPath(user.token, `/Project ${tag}/plan.txt`)).status).toBe(200);
    await grantRight(project.id, user.id, { browse: true });
    expectError(await byPath(user.token, `/Project ${tag}/plan.txt`), 404, "not_found");
    expectError(await byPath(colleague.token, `/Project ${tag}/plan.txt`), 404, "not_found");
    expect((await byPath(colleague.token, `/Private/Project ${tag}/plan.txt`)).status).toBe(200);
    await expectAuthRequired(objectPathRoute.GET, { path: "/api/objectpath", query: { object: "/Private/" } });
  });
});
