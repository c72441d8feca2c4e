import type { Db } from "@/db";

// Placeholder replaced by the SMTP delivery job (nodemailer) in the mail slice.
export async function sendMailJob(_db: Db, _payload: Record<string, unknown>): Promise<void> {
  throw new Error("mail delivery not implemented yet");
}
