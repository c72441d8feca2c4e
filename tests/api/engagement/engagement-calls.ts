import * as pagesRoute from "@/app/api/share/key/[key]/visits/[visitId]/pages/route";
import * as visitsRoute from "@/app/api/share/key/[key]/visits/route";
import * as analyticsRoute from "@/app/api/share/[shareId]/analytics/route";
import * as exportRoute from "@/app/api/share/[shareId]/analytics/export/route";
import * as timelineRoute from "@/app/api/share/[shareId]/analytics/visitors/[visitorId]/route";
import * as summaryRoute from "@/app/api/shares/analytics/route";
import { call } from "../../helpers/http";
import { bearer } from "../shares/share-helpers";

export const openVisit = (key: string, token: string | undefined, fileId: number) =>
  call(visitsRoute.POST, { method: "POST", params: { key }, headers: bearer(token), body: { file_id: fileId } });

export const sendPages = (key: string, token: string | undefined, visitId: number, pages: unknown, ip = "10.7.0.1") =>
  call(pagesRoute.POST, { method: "POST", params: { key, visitId: String(visitId) }, headers: { ...bearer(token), "x-forwarded-for": ip }, body: { pages } });

export const analytics = (shareId: number, token?: string) => call(analyticsRoute.GET, { params: { shareId: String(shareId) }, token });
export const exportCsv = (shareId: number, token?: string) => call(exportRoute.GET, { params: { shareId: String(shareId) }, token });
export const timeline = (shareId: number, visitorId: number, token?: string) => call(timelineRoute.GET, { params: { shareId: String(shareId), visitorId: String(visitorId) }, token });
export const summary = (token?: string) => call(summaryRoute.GET, { token });
export { pagesRoute };
