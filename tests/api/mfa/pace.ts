import { eq } from "drizzle-orm";
import { getDb } from "@/db";
import { mfaChallenges } from "@/db/schema";

/** Moves this account's last SMS a minute into the past, instead of waiting out the pacing. */
export async function forgetLastCode(userId: number) {
  const db = await getDb();
  await db.update(mfaChallenges).set({ codeSentAt: new Date(Date.now() - 61_000) }).where(eq(mfaChallenges.userId, userId));
}
