import { beforeAll, describe, expect, it } from "vitest";
import { categoryResponse } from "@/lib/contracts/tags";
import { createAdmin, createTestUser, latestLog, unique } from "../../helpers/factories";
import { OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { expectError } from "../../helpers/http";
import { expectAuthRequired } from "../../helpers/security";
import {
  categoriesRoute,
  categoryRoute,
  deleteCategory,
  getCategory,
  getTag,
  listCategories,
  makeTag,
  oneCategoryRoute,
  postCategory,
  putCategory,
} from "./tag-helpers";

beforeAll(openDatabase, OPEN_TIMEOUT);

const at = (id: number) => ({ path: `/api/tag/category/${id}`, params: { categoryId: String(id) } });

describe("tag categories", () => {
  it("an administrator creates one with its colour and derived shades (201)", async () => {
    const admin = await createAdmin();
    const name = unique("Projects ");
    const res = await postCategory(admin.token, { name, color: "#2F5BD3" });
    expect(res.status, res.text).toBe(201);
    expect(categoryResponse.strict().parse(res.body)).toEqual({
      id: expect.any(Number),
      name,
      color: "#2f5bd3",
      primary_color: "#2f5bd3",
      secondary_color: "#8da5e7",
      tertiary_color: "#e0e6f8",
      nb_tags: 0,
    });
    expect(await latestLog("tag_category", res.body.id)).toMatchObject({ type: "ADMLLOG_INSERT", object: name });
    // Without a colour: the default one.
    expect((await postCategory(admin.token, { name: unique("Plain ") })).body.color).toBe("#2f5bd3");
  });

  it("refuses users who are not administrators, bad input and a name taken", async () => {
    const [admin, user] = [await createAdmin(), await createTestUser()];
    expectError(await postCategory(user.token, { name: unique("x") }), 403, "forbidden");
    expectError(await postCategory(admin.token, { name: unique("x"), color: "red" }), 400, "invalid_request");
    expectError(await postCategory(admin.token, { name: "" }), 400, "invalid_request");
    const name = unique("Dup ");
    await postCategory(admin.token, { name });
    expectError(await postCategory(admin.token, { name: name.toLowerCase() }), 409, "conflict");
    await expectAuthRequired(categoryRoute.POST, { method: "POST", path: "/api/tag/category", body: { name: "x" } });
  });

  it("lists categories for every user; nb_tags and tags count only the tags the caller sees", async () => {
    const [admin, alice, bob] = [await createAdmin(), await createTestUser(), await createTestUser()];
    const category = (await postCategory(admin.token, { name: unique("AAA shared "), color: "#005500" })).body;
    const open = await makeTag(alice.token, { category_id: category.id });
    const secret = await makeTag(alice.token, { category_id: category.id, private: true });
    const list = await listCategories(bob.token, { full: 1, nb_objects: 1000 });
    expect(list.status, list.text).toBe(200);
    const seen = list.body.objects.find((c: { id: number }) => c.id === category.id);
    expect(seen).toMatchObject({ nb_tags: 1, tags: [{ id: open.id, color: "#005500" }] });
    const plain = (await listCategories(bob.token, { nb_objects: 1000 })).body.objects.find((c: { id: number }) => c.id === category.id);
    expect(plain).not.toHaveProperty("tags");
    const own = await getCategory(alice.token, category.id);
    expect(own.status, own.text).toBe(200);
    expect(categoryResponse.strict().parse(own.body).tags!.map((t) => t.id).sort()).toEqual([open.id, secret.id].sort());
    expectError(await getCategory(alice.token, 2_000_000_000), 404, "not_found");
    expectError(await listCategories(alice.token, { offset_start: -1 }), 400, "invalid_request");
    await expectAuthRequired(categoriesRoute.GET, { path: "/api/tag/categories" });
    await expectAuthRequired(oneCategoryRoute.GET, at(category.id));
  });

  it("an administrator renames and recolours one; its tags take the colour", async () => {
    const [admin, user] = [await createAdmin(), await createTestUser()];
    const category = (await postCategory(admin.token, { name: unique("Old ") })).body;
    const tag = await makeTag(user.token, { category_id: category.id });
    const name = unique("New ");
    const res = await putCategory(admin.token, category.id, { name, color: "#ff0000" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name, color: "#ff0000", primary_color: "#ff0000", nb_tags: 1 });
    expect((await getTag(user.token, tag.id)).body.color).toBe("#ff0000");
    expectError(await putCategory(user.token, category.id, { name: unique("x") }), 403, "forbidden");
    expectError(await putCategory(admin.token, category.id, { color: "#12345" }), 400, "invalid_request");
    expectError(await putCategory(admin.token, 2_000_000_000, { name: "x" }), 404, "not_found");
    await expectAuthRequired(oneCategoryRoute.PUT, { ...at(category.id), method: "PUT", body: { name: "x" } });
  });

  it("an administrator deletes one; its tags stay, without a category", async () => {
    const [admin, user] = [await createAdmin(), await createTestUser()];
    const category = (await postCategory(admin.token, { name: unique("Gone "), color: "#00aa00" })).body;
    const tag = await makeTag(user.token, { category_id: category.id });
    expectError(await deleteCategory(user.token, category.id), 403, "forbidden");
    const res = await deleteCategory(admin.token, category.id);
    expect(res.status, res.text).toBe(204);
    expectError(await getCategory(admin.token, category.id), 404, "not_found");
    expect((await getTag(user.token, tag.id)).body).toMatchObject({ category_id: null, color: "#6b7280" });
    expectError(await deleteCategory(admin.token, category.id), 404, "not_found");
    await expectAuthRequired(oneCategoryRoute.DELETE, { ...at(category.id), method: "DELETE" });
  });
});
