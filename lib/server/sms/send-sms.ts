import "server-only";
import type { DbOrTx } from "@/db";
import { smsMessages } from "@/db/schema";
import { AppError } from "../errors";
import { getSmsProvider, type SmsProvider } from "./provider";

/** Sends a text message through the configured provider and records it (with the failure, if any). */
export async function sendSms(db: DbOrTx, to: string, body: string, provider: SmsProvider = getSmsProvider()): Promise<void> {
  let error: string | null = null;
  try {
    await provider.send(to, body);
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  await db.insert(smsMessages).values({ to, body, provider: provider.name, sentAt: error ? null : new Date(), error });
  if (error) throw new AppError("service_unavailable", "The text message could not be sent; try again later");
}
