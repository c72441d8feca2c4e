import "server-only";
import { fill, mailTemplate, mailTranslator } from "../mail/render-mail";
import type { FolderChangeKind } from "./record-folder-change";

/**
 * The default alert mail. Custom EM_TE_ALERT templates get the same placeholders: {{recipient}},
 * {{folder}} and {{link}} (the followed folder), {{changes}} (one line per change), {{count}},
 * {{actor}} (who made the changes), {{file}} (the name, when there is one change), {{platform}}.
 */
export const ALERT_DIGEST_MAIL = mailTemplate("alertDigest");

type LineKey = "file_created" | "version_created" | "deleted_file" | "deleted_folder" | "annotation_file" | "annotation_folder";

export type DigestLine = { kind: FolderChangeKind; objectType: string; name: string; folder: string; actor: string; link: string };

/** One line per change, in the recipient's language. */
export function digestLines(lines: DigestLine[], language: string | null | undefined): string {
  const t = mailTranslator(language);
  return lines
    .map((l) => {
      const key = (l.kind === "deleted" || l.kind === "annotation" ? `${l.kind}_${l.objectType === "folder" ? "folder" : "file"}` : l.kind) as LineKey;
      return fill(t("mail.alertDigest.line"), { what: t(`mail.alertDigest.${key}`), name: l.name, folder: l.folder, actor: l.actor, link: l.link });
    })
    .join("\n");
}
