import type { Metadata } from "next";
import { InviteScreen, type InviteState } from "@/components/invite/invite-screen";
import { getDb, type Db } from "@/db";
import { getServerT } from "@/lib/i18n/server";
import { getPlatformConfig } from "@/lib/server/config/platform-config";
import { AppError } from "@/lib/server/errors";
import { readInvitationKey } from "@/lib/server/invitations/read-invitation-key";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getServerT())("meta.invite") };
}

/** The page an invitation mail links to: who invites the reader to which folder, and the form that creates their account. */
export default async function InvitePage({ params }: { params: Promise<{ key: string }> }) {
  const { key } = await params;
  const db = await getDb();
  const config = await getPlatformConfig(db);
  return <InviteScreen platformName={config.platform_name} inviteKey={key} minLength={config.password_min_length} state={await readState(db, key)} />;
}

async function readState(db: Db, key: string): Promise<InviteState> {
  try {
    // The same service as GET /api/invite/key/(key); the page is anonymous like that route.
    const preview = await readInvitationKey({ db, actor: null, request: { ip: "", userAgent: null } }, key);
    return { kind: "open", preview };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.code === "invitation_expired") return { kind: "expired" };
    if (error.code === "invitation_used") return { kind: "used" };
    return { kind: error.code === "not_found" ? "unknown" : "unavailable" };
  }
}
