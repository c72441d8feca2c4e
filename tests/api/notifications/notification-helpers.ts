import { expect } from "vitest";
import * as oneRoute from "@/app/api/notification/[notificationId]/route";
import * as readAllRoute from "@/app/api/notifications/read/route";
import * as listRoute from "@/app/api/notifications/route";
import * as rightRoute from "@/app/api/right/route";
import { notificationResponse, notificationsResponse } from "@/lib/contracts/notifications";
import type { TestUser } from "../../helpers/factories";
import { call } from "../../helpers/http";

export { listRoute, oneRoute, readAllRoute };

export const notificationPath = (id: number) => ({ path: `/api/notification/${id}`, params: { notificationId: String(id) } });
export const markRead = (token: string, id: number, body: unknown) => call(oneRoute.PUT, { ...notificationPath(id), method: "PUT", token, body });
export const readAll = (token: string) => call(readAllRoute.PUT, { path: "/api/notifications/read", method: "PUT", token });

/** The caller's notifications, parsed by the contract's schema (200 expected). */
export async function listNotifications(token: string, query: Record<string, string | number> = {}) {
  const res = await call(listRoute.GET, { path: "/api/notifications", token, query });
  expect(res.status, res.text).toBe(200);
  return notificationsResponse.parse(res.body);
}

export const parseNotification = (body: unknown) => notificationResponse.parse(body);

/** `by` gives `targetId` (a user or a group) read access to a folder through POST /right. */
export async function giveRight(by: TestUser, folderId: number, targetId: number) {
  const res = await call(rightRoute.POST, { method: "POST", path: "/api/right", token: by.token, body: { folder_id: folderId, target_id: targetId, browse: true, read: true } });
  expect(res.status, res.text).toBe(201);
}
