import { describe, expect, it } from "vitest";
import { z } from "zod";
import { created, route } from "@/lib/server/http/route";
import { call, expectError } from "../../helpers/http";

// Issue 27: under tests (and `next dev`) every 2xx JSON answer of an operation with a response
// schema is parsed by it; a mismatch is a loud 500 naming the operation and zod's issue path, on
// Next's path and on the Node server's (TEST_VIA=node runs this file through nodeRoute).

const signature = z.object({ id: z.number().int(), actors: z.array(z.object({ user_id: z.number().int().nullable() })) });

// The typed signature of route() refuses the string id at compile time; the cast stands for a presenter that lies at run time.
const wrongActor = route({ auth: "none", response: signature }, () => ({ id: 7, actors: [{ user_id: "1102" }] }) as unknown as z.input<typeof signature>);
// @ts-expect-error: a presenter's string id where the schema says int does not compile (tsc checks this line).
route({ auth: "none", response: signature }, () => ({ id: 7, actors: [{ user_id: "1102" }] }));
const rightActor = route({ auth: "none", response: signature }, () => ({ id: 7, actors: [{ user_id: 1102 }, { user_id: null }] }));
const wrongCreation = route({ auth: "none", response: { 201: signature } }, () => created({ id: "7", actors: [] }));
const rightCreation = route({ auth: "none", response: { 201: signature } }, () => created({ id: 7, actors: [] }));
const noSchemaForStatus = route({ auth: "none", response: { 201: signature } }, () => Response.json({ id: 7, actors: [] }));
const emptyAnswer = route({ auth: "none", response: signature }, () => undefined);
const errorAnswer = route({ auth: "none", response: signature }, () => Response.json({ error: "no", code: "not_found" }, { status: 404 }));

describe("response schemas", () => {
  it("turns a string id where the schema says int into a 500 naming the route and the issue's path", async () => {
    const res = await call(wrongActor, { path: "/api/signature/7" });
    expectError(res, 500, "response_mismatch");
    expect(res.body.error).toContain("GET /api/signature/7");
    expect(res.body.details.issues).toEqual([expect.objectContaining({ path: "actors.0.user_id" })]);
  });

  it("lets an answer that matches through unchanged", async () => {
    const res = await call(rightActor, { path: "/api/signature/7" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: 7, actors: [{ user_id: 1102 }, { user_id: null }] });
  });

  it("checks a JSON Response by its status's schema (created(): 201)", async () => {
    const wrong = await call(wrongCreation, { method: "POST", path: "/api/signature" });
    expectError(wrong, 500, "response_mismatch");
    expect(wrong.body.details).toMatchObject({ route: "POST /api/signature", status: 201, issues: [{ path: "id" }] });
    const right = await call(rightCreation, { method: "POST", path: "/api/signature" });
    expect(right.status).toBe(201);
    expect(right.body).toEqual({ id: 7, actors: [] });
  });

  it("refuses a 2xx JSON answer whose status has no schema in the map", async () => {
    const res = await call(noSchemaForStatus, { path: "/api/signature/7" });
    expectError(res, 500, "response_mismatch");
    expect(res.body.details.status).toBe(200);
  });

  it("leaves 204s and error answers alone", async () => {
    expect((await call(emptyAnswer, { method: "DELETE", path: "/api/signature/7" })).status).toBe(204);
    expectError(await call(errorAnswer, { path: "/api/signature/7" }), 404, "not_found");
  });
});
