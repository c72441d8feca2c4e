import { z } from "zod";
import { isoDate } from "./common";
import { fileResponse } from "./files";
import { folderBase } from "./folders";

/**
 * An event as timelines show it (api.md, "Event fields"): replies to an annotation under
 * `responses` (type 1), a run of downloads grouped as type 9 with `subtype` and `extended`.
 * `geo`, `env` and `data` depend on the event's type.
 */
export type TimelineEventResponse = {
  id: number;
  type: number;
  date: string | null;
  geo: unknown;
  env: unknown;
  owner: string;
  owner_id: string;
  data: unknown;
  responses?: TimelineEventResponse[];
  subtype?: number;
  extended?: TimelineEventResponse[];
};
export const timelineEventResponse: z.ZodType<TimelineEventResponse> = z.object({
  id: z.number().int(),
  type: z.number().int(),
  date: isoDate.nullable(),
  geo: z.unknown(),
  env: z.unknown(),
  owner: z.string(),
  owner_id: z.string(),
  data: z.unknown(),
  responses: z.array(z.lazy(() => timelineEventResponse)).optional(),
  subtype: z.number().int().optional(),
  extended: z.array(z.lazy(() => timelineEventResponse)).optional(),
});

/** GET /file/(fileId)/timeline: each live version, newest first, with its totals and events. */
export const fileTimelineResponse = z.array(
  fileResponse.extend({
    total_annotations: z.number().int(),
    total_downloads: z.number().int(),
    total_dlinks: z.number().int(),
    total_previews: z.number().int(),
    events: z.array(timelineEventResponse),
  }),
);

/** GET /folder/(folderId)/timeline: the Folder (no content) and its events. */
export const folderTimelineResponse = folderBase.extend({ events: z.array(timelineEventResponse) });
