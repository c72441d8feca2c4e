import { noContent } from "@/lib/contracts/common";
import { otherMethods } from "@/lib/server/http/methods";
import { route } from "@/lib/server/http/route";
import { readAllNotifications } from "@/lib/server/notifications/read-all-notifications";

export const runtime = "nodejs";

// PUT /api/notifications/read: mark every notification of the caller read (204)
export const PUT = route({ response: noContent }, ({ ctx }) => readAllNotifications(ctx));

export const { GET, PATCH, POST, DELETE } = otherMethods({ PUT });
