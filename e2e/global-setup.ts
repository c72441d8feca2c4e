import { startMailbox } from "./mailbox";

/** The journeys' local SMTP server, for the mails the app sends (receipts, invitations). */
export default async function globalSetup() {
  return startMailbox();
}
