import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { FileBrowser } from "@/components/file-browser/file-browser";
import { getServerT } from "@/lib/i18n/server";
import { getCurrentUser } from "@/lib/server/auth/current-user";
import type { Location } from "@/lib/queries/files";

type Params = { params: Promise<{ folder?: string[] }> };

export async function generateMetadata(): Promise<Metadata> {
  const current = await getCurrentUser();
  return { title: (await getServerT(current?.user.language))("meta.files") };
}

/** /files (my files), /files/company, /files/shared, or /files/<folderId>. */
function toLocation(segments: string[] | undefined): Location | null {
  if (!segments || segments.length === 0) return { kind: "space", space: "private" };
  if (segments.length > 1) return null;
  const [segment] = segments;
  if (segment === "company" || segment === "shared") return { kind: "space", space: segment };
  const id = Number(segment);
  return Number.isInteger(id) && id > 0 && id <= 2_147_483_647 ? { kind: "folder", id } : null;
}

export default async function FilesPage({ params }: Params) {
  const location = toLocation((await params).folder);
  if (!location) notFound();
  // A new browser per place: selection, search and scroll start afresh when the folder changes.
  const key = location.kind === "space" ? location.space : String(location.id);
  return <FileBrowser key={key} location={location} />;
}
