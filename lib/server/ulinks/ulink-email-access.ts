import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { ulinkEmails, type User } from "@/db/schema";
import { AppError } from "../errors";
import type { UlinkEmailRow } from "./present-ulink-emails";

/** A drop link by email its owner (or an administrator) manages; anyone else gets a 404. */
export async function getOwnUlinkEmailOrThrow(db: DbOrTx, user: Pick<User, "id" | "role">, id: number): Promise<UlinkEmailRow> {
  const [row] = await db.select().from(ulinkEmails).where(eq(ulinkEmails.id, id)).limit(1);
  if (!row || (row.ownerId !== user.id && user.role !== 3)) throw new AppError("not_found", "Drop link by email not found");
  return row;
}
