import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db";
import { shareEmails, type User } from "@/db/schema";
import { AppError } from "../errors";

export type ShareEmailRow = typeof shareEmails.$inferSelect;

/** An email share its owner (or an administrator) manages; anyone else gets a 404. */
export async function getOwnShareEmailOrThrow(db: DbOrTx, user: Pick<User, "id" | "role">, id: number): Promise<ShareEmailRow> {
  const [row] = await db.select().from(shareEmails).where(eq(shareEmails.id, id)).limit(1);
  if (!row || (row.ownerId !== user.id && user.role !== 3)) throw new AppError("not_found", "Email share not found");
  return row;
}
