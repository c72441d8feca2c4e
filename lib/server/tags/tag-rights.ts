import "server-only";
import type { TagElementType } from "@/lib/contracts/tags";
import type { RightName } from "../rights/rights";

/** Seeing an element: files are listed with the read right on their folder, folders with browse. */
export const seeRight = (type: TagElementType): RightName => (type === "file" ? "read" : "browse");

/** Putting a public tag on an element, or taking one off, changes it for everyone: the edit right. */
export const tagRight: RightName = "edit";
