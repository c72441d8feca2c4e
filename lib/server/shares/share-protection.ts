import "server-only";
import { SHARE_FLAG } from "@/db/schema";
import { hashLinkPassword } from "../links/link-password";
import { checkShareFlags } from "./share-flags";

type Stored = { flags: number; passwordHash: string | null; phone: string | null };
type Requested = { flags?: number; password?: string | null; phone?: string | null };

/**
 * The flags, password hash and phone to store after a create or an update. A password given
 * turns flag 16 on and null turns it off (likewise the phone and 32), so clients sending only a
 * password get what they mean; a flag without its secret is a 400. `secretsChanged` tells the
 * caller to revoke the access tokens handed out under the old secrets.
 */
export async function applyProtection(current: Stored, input: Requested): Promise<Stored & { secretsChanged: boolean }> {
  let flags = input.flags ?? current.flags;
  let passwordHash = current.passwordHash;
  let phone = current.phone;
  if (input.password !== undefined) {
    passwordHash = input.password ? await hashLinkPassword(input.password) : null;
    flags = passwordHash ? flags | SHARE_FLAG.password : flags & ~SHARE_FLAG.password;
  }
  if (input.phone !== undefined) {
    phone = input.phone || null;
    flags = phone ? flags | SHARE_FLAG.sms : flags & ~SHARE_FLAG.sms;
  }
  flags = checkShareFlags(flags, { password: Boolean(passwordHash), phone: Boolean(phone) });
  if (!(flags & SHARE_FLAG.password)) passwordHash = null;
  if (!(flags & SHARE_FLAG.sms)) phone = null;
  const secretsChanged = passwordHash !== current.passwordHash || phone !== current.phone || (flags & 48) !== (current.flags & 48);
  return { flags, passwordHash, phone, secretsChanged };
}
