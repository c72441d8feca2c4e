import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as shareKeyRoute from "@/app/api/share/key/[key]/route";
import { getDb } from "@/db";
import { workflowEvents } from "@/db/schema";
import { fileResponse } from "@/lib/contracts/files";
import { workflowInstanceResponse } from "@/lib/contracts/workflows";
import { createTestUser, latestLog } from "../../helpers/factories";
import { createFileScene, OPEN_TIMEOUT, openDatabase } from "../../helpers/file-ops-factories";
import { call, expectError } from "../../helpers/http";
import { deliverTo, withLocalSmtp } from "../../helpers/smtp";
import { address, flux1, read, readFile, start, tokenFromMail, transition } from "./workflow-helpers";

const smtp = withLocalSmtp(openDatabase, OPEN_TIMEOUT);
const browser = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0", "x-forwarded-for": "203.0.113.7" };

describe("a validator's link: GET /workflow/instance/(token) and POST .../transition", () => {
  it("shows the instance as the validator sees it, records the opening, and validates; the last validation closes it", async () => {
    const { owner, version, file } = await createFileScene();
    const colleague = await createTestUser();
    const outsider = address();
    const instance = await start(owner, flux1(version.id, { interne: [{ id: colleague.id }], externe: [{ email: outsider, name: "Ann Outside" }] }, { comment: "Totals?" }));
    const external = (await tokenFromMail(smtp(), outsider)).token;
    const internal = (await tokenFromMail(smtp(), colleague.email)).token;

    const seen = await read(external, null, browser);
    expect(seen.status, seen.text).toBe(200);
    const view = workflowInstanceResponse.strict().parse(seen.body);
    expect(view).toMatchObject({
      id: instance.id,
      state: { id: "waiting_validation" },
      is_closed: false,
      comment: "Totals?",
      documents: [{ id: version.id, name: file.name }],
      me: { type: "externe", email: outsider, name: "Ann Outside", decision: null, opened: true },
      transitions_available: { validation: [{ id: "validated", name: "workflow.state.validated" }, { id: "refused", name: "workflow.state.refused" }] },
    });
    // A validator never sees who else was asked.
    expect(view.validators).toBeUndefined();
    expect(JSON.stringify(view)).not.toContain(colleague.email);
    const db = await getDb();
    const opened = await db.select().from(workflowEvents).where(and(eq(workflowEvents.instanceId, instance.id), eq(workflowEvents.action, "opened")));
    expect(opened.map((e) => [e.ip, e.userAgent])).toEqual([["203.0.113.7", browser["user-agent"]]]);
    // The same browser again is not a new opening; another one is.
    await read(external, null, browser);
    await read(external, null, { "user-agent": "curl/8", "x-forwarded-for": "198.51.100.2" });
    expect((await db.select().from(workflowEvents).where(and(eq(workflowEvents.instanceId, instance.id), eq(workflowEvents.action, "opened")))).length).toBe(2);

    // The state may be given by id or by its translation key.
    const first = await transition(external, { state: "workflow.state.validated", comment: "Fine by me" }, null, browser);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ state: { id: "waiting_validation" }, is_closed: false, transitions_available: {}, me: { decision: "validated", comment: "Fine by me" } });
    const decided = await db.select().from(workflowEvents).where(and(eq(workflowEvents.instanceId, instance.id), eq(workflowEvents.action, "validated")));
    expect(decided.map((e) => [e.ip, e.userAgent, e.comment])).toEqual([["203.0.113.7", browser["user-agent"], "Fine by me"]]);
    // A second decision by the same link: nothing is offered any more.
    const again = await transition(external, { state: "refused" });
    expectError(again, 409, "conflict");
    expect(again.body.details.offered).toEqual([]);

    const last = await transition(internal, { state: "validated" });
    expect(last.status, last.text).toBe(200);
    expect(last.body).toMatchObject({ state: { id: "validated", name: "workflow.state.validated" }, is_closed: true });
    expect((await latestLog("workflow", instance.id))?.message).toContain("closed: validated");

    // The initiator is told, with each decision; the file carries the closed workflow.
    const closing = await deliverTo(smtp(), owner.email, (m) => m.text.includes("is closed"));
    expect(closing.text).toContain("Ann Outside <" + outsider + "> validated: Fine by me");
    const shown = await readFile(owner.token, version.id);
    expect(fileResponse.parse(shown.body).workflow).toEqual({ id: instance.id, flux: 1, state: { id: "validated", name: "workflow.state.validated" }, is_closed: true });

    // Closed: every link is dead.
    expectError(await read(external), 410, "workflow_closed");
    expectError(await transition(internal, { state: "refused" }), 410, "workflow_closed");
  });

  it("closes as refused at the first refusal", async () => {
    const { owner, version } = await createFileScene();
    const [a, b] = [address(), address()];
    const instance = await start(owner, flux1(version.id, { externe: [{ email: a }, { email: b }] }));
    const token = (await tokenFromMail(smtp(), b)).token;
    const res = await transition(token, { state: "refused", comment: "Wrong totals" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ state: { id: "refused" }, is_closed: true, me: { decision: "refused", comment: "Wrong totals" } });
    const other = (await tokenFromMail(smtp(), a)).token;
    expectError(await read(other), 410, "workflow_closed");
    expect((await readFile(owner.token, version.id)).body.workflow).toMatchObject({ id: instance.id, state: { id: "refused" }, is_closed: true });
  });

  it("refuses a state not offered (409), bad bodies (400), forged and unknown links (404)", async () => {
    const { owner, version } = await createFileScene();
    const to = address();
    await start(owner, flux1(version.id, { externe: [{ email: to }] }));
    const token = (await tokenFromMail(smtp(), to)).token;
    for (const state of ["signed", "waiting_validation", "cancelled", "whatever"]) {
      const res = await transition(token, { state });
      expectError(res, 409, "conflict");
      expect(res.body.details.offered).toEqual(["validated", "refused"]);
    }
    expectError(await transition(token, {}), 400, "invalid_request");
    expectError(await transition(token, { state: "validated", comment: "x".repeat(5001) }), 400, "invalid_request");
    expectError(await transition(token, { state: "validated", comment: "a\u202eb" }), 400, "invalid_request");

    const [id, secret] = token.split(".");
    const forged = `${id}.${secret.slice(0, -1)}${secret.endsWith("A") ? "B" : "A"}`;
    expectError(await read(forged), 404, "link_not_found");
    expectError(await transition(forged, { state: "validated" }), 404, "link_not_found");
    expectError(await read(`999999999.${secret}`), 404, "link_not_found");
    expectError(await read("not-a-token"), 400, "invalid_request");
    // The link still works after all this: nothing was decided.
    expect((await read(token)).body.me.decision).toBeNull();
  });

  it("lets an internal validator act in the app with the instance id; nobody else may", async () => {
    const { owner, other, version } = await createFileScene();
    const colleague = await createTestUser();
    const instance = await start(owner, flux1(version.id, { interne: [{ id: colleague.id }] }));

    const mine = await read(instance.id, colleague.token);
    expect(mine.status, mine.text).toBe(200);
    expect(mine.body).toMatchObject({ me: { type: "interne", user_id: colleague.id }, transitions_available: { validation: [{ id: "validated" }, { id: "refused" }] } });
    expect(mine.body.validators).toBeUndefined();

    // The initiator sees everyone, but has nothing to decide.
    const whole = await read(instance.id, owner.token);
    expect(whole.body.validators).toHaveLength(1);
    expectError(await transition(instance.id, { state: "validated" }, owner.token), 409, "conflict");

    expectError(await read(instance.id, other.token), 404, "not_found");
    expectError(await transition(instance.id, { state: "validated" }, other.token), 404, "not_found");
    expectError(await read(instance.id), 401, "unauthorized");
    expectError(await transition(instance.id, { state: "validated" }), 401, "unauthorized");

    const done = await transition(instance.id, { state: "validated", comment: "OK" }, colleague.token);
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ state: { id: "validated" }, is_closed: true });
    const db = await getDb();
    const [event] = await db.select().from(workflowEvents).where(and(eq(workflowEvents.instanceId, instance.id), eq(workflowEvents.action, "validated")));
    expect(event.userId).toBe(colleague.id);
  });

  it("send_copy: on completion everyone gets a download link to the documents", async () => {
    const { owner, version, file } = await createFileScene();
    const to = address();
    await start(owner, flux1(version.id, { externe: [{ email: to }] }, { send_copy: true }));
    const token = (await tokenFromMail(smtp(), to)).token;
    expect((await transition(token, { state: "validated" })).status).toBe(200);
    for (const who of [to, owner.email]) {
      const copy = await deliverTo(smtp(), who, (m) => m.text.includes("/s/"));
      const key = decodeURIComponent(/\/s\/([^\s]+)/.exec(copy.text)![1]);
      const share = await call(shareKeyRoute.GET, { params: { key } });
      expect(share.status, share.text).toBe(200);
      expect(share.body.owner).toBeTruthy();
      expect(copy.text).toContain(file.name);
    }
  });
});

