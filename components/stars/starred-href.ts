import type { StarResponse } from "@/lib/queries/stars";

/** Where a starred item opens: a folder itself, a file its folder. */
export const starredHref = (star: Pick<StarResponse, "type" | "id" | "object">) => `/files/${star.type === "folder" ? star.id : star.object.parent_id}`;
