import { z } from "zod";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { paging } from "@/lib/contracts/common";
import { smsListResponse } from "@/lib/contracts/sms";
import { listSms } from "@/lib/server/sms/list-sms";

export const runtime = "nodejs";

// GET /api/admin/sms: the text messages the platform sent (link codes), administrators only
export const GET = route({ auth: "admin", query: z.object({ ...paging }), response: smsListResponse }, ({ ctx, query }) => listSms(ctx, query));

export const { POST, PUT, PATCH, DELETE } = otherMethods({ GET });
