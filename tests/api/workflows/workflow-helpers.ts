import { expect } from "vitest";
import * as fileRoute from "@/app/api/file/[fileId]/route";
import * as documentRoute from "@/app/api/workflow/instance/[key]/documents/[fileId]/[type]/route";
import * as oneRoute from "@/app/api/workflow/instance/[key]/route";
import * as transitionRoute from "@/app/api/workflow/instance/[key]/transition/route";
import * as createRoute from "@/app/api/workflow/instance/route";
import * as listRoute from "@/app/api/workflow/instances/route";
import { workflowInstanceResponse, type WorkflowInstanceResponse } from "@/lib/contracts/workflows";
import { unique, type TestUser } from "../../helpers/factories";
import { call } from "../../helpers/http";
import { deliverTo, type ReceivedMail, type TestSmtpServer } from "../../helpers/smtp";

export const post = (token: string | null, body: unknown) => call(createRoute.POST, { method: "POST", path: "/api/workflow/instance", token, body });
export const list = (token: string | null, query: Record<string, string> = {}) => call(listRoute.GET, { path: "/api/workflow/instances", token, query });
/** GET by mailed token (no session) or, with `token`, by id as a signed-in user. */
export const read = (key: string | number, token: string | null = null, headers: Record<string, string> = {}) =>
  call(oneRoute.GET, { path: `/api/workflow/instance/${key}`, token, params: { key: String(key) }, headers });
export const cancel = (token: string | null, id: number) => call(oneRoute.DELETE, { method: "DELETE", path: `/api/workflow/instance/${id}`, token, params: { key: String(id) } });
export const transition = (key: string | number, body: unknown, token: string | null = null, headers: Record<string, string> = {}) =>
  call(transitionRoute.POST, { method: "POST", path: `/api/workflow/instance/${key}/transition`, token, params: { key: String(key) }, body, headers });
export const documentToken = (key: string | number, fileId: number, type: string, token: string | null = null) =>
  call(documentRoute.POST, { method: "POST", path: `/api/workflow/instance/${key}/documents/${fileId}/${type}`, token, params: { key: String(key), fileId: String(fileId), type } });
export const readFile = (token: string, versionId: number) => call(fileRoute.GET, { path: `/api/file/${versionId}`, token, params: { fileId: String(versionId) }, query: { full: "1" } });

export const address = () => `${unique("val")}@example.test`;

/** Creates an instance as `user` and answers it parsed (201 expected). */
export async function start(user: TestUser, body: unknown): Promise<WorkflowInstanceResponse> {
  const res = await post(user.token, body);
  expect(res.status, res.text).toBe(201);
  return workflowInstanceResponse.strict().parse(res.body);
}

/** A flux 1 body on one file with the given validators. */
export const flux1 = (versionId: number, validation: { interne?: unknown[]; externe?: unknown[] }, extra: Record<string, unknown> = {}) => ({
  flux: { id: 1 },
  properties: { objects: [{ type: "file", id: versionId }], validation: { interne: validation.interne ?? [], externe: validation.externe ?? [] }, ...extra },
});

const LINK = /\/workflow\/([0-9]+\.[A-Za-z0-9_-]{43})/;

/** The validator's token, read from the mail that really reached them through SMTP. */
export async function tokenFromMail(smtp: TestSmtpServer, to: string, match: (m: ReceivedMail) => boolean = () => true): Promise<{ token: string; mail: ReceivedMail }> {
  const mail = await deliverTo(smtp, to, (m) => LINK.test(m.text) && match(m));
  return { token: LINK.exec(mail.text)![1], mail };
}
