import "server-only";
import { fill, mailLanguage, type MailTemplate } from "../mail/render-mail";
import type { FolderChangeKind } from "./record-folder-change";

/**
 * The default alert mail. Custom EM_TE_ALERT templates get the same placeholders: {{recipient}},
 * {{folder}} and {{link}} (the followed folder), {{changes}} (one line per change), {{count}},
 * {{actor}} (who made the changes), {{file}} (the name, when there is one change), {{platform}}.
 */
export const ALERT_DIGEST_MAIL: MailTemplate = {
  en: {
    subject: "{{platform}}: activity in {{folder}}",
    text: "Hello {{recipient}},\n\nHere is what changed in the folders you follow:\n\n{{changes}}\n\nOpen {{folder}}: {{link}}\n\nYou receive this mail because of an alert on {{folder}}; it can be stopped from the folder's alerts.\n",
  },
  fr: {
    subject: "{{platform}} : du nouveau dans {{folder}}",
    text: "Bonjour {{recipient}},\n\nVoici ce qui a changé dans les dossiers que vous suivez :\n\n{{changes}}\n\nOuvrir {{folder}} : {{link}}\n\nVous recevez ce message en raison d'une alerte sur {{folder}} ; elle peut être arrêtée depuis les alertes du dossier.\n",
  },
};

type LineKey = "file_created" | "version_created" | "deleted_file" | "deleted_folder" | "annotation_file" | "annotation_folder";

const LINES: Record<"en" | "fr", { line: string; what: Record<LineKey, string> }> = {
  en: {
    line: '- {{what}} "{{name}}" in {{folder}}, by {{actor}}: {{link}}',
    what: {
      file_created: "New file",
      version_created: "New version of",
      deleted_file: "Deleted file",
      deleted_folder: "Deleted folder",
      annotation_file: "New comment on",
      annotation_folder: "New comment on folder",
    },
  },
  fr: {
    line: "- {{what}} « {{name}} » dans {{folder}}, par {{actor}} : {{link}}",
    what: {
      file_created: "Nouveau fichier",
      version_created: "Nouvelle version de",
      deleted_file: "Fichier supprimé",
      deleted_folder: "Dossier supprimé",
      annotation_file: "Nouveau commentaire sur",
      annotation_folder: "Nouveau commentaire sur le dossier",
    },
  },
};

export type DigestLine = { kind: FolderChangeKind; objectType: string; name: string; folder: string; actor: string; link: string };

/** One line per change, in the recipient's language. */
export function digestLines(lines: DigestLine[], language: string | null | undefined): string {
  const format = LINES[mailLanguage(language)];
  return lines
    .map((l) => {
      const key = (l.kind === "deleted" || l.kind === "annotation" ? `${l.kind}_${l.objectType === "folder" ? "folder" : "file"}` : l.kind) as LineKey;
      return fill(format.line, { what: format.what[key], name: l.name, folder: l.folder, actor: l.actor, link: l.link });
    })
    .join("\n");
}
