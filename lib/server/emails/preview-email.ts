import "server-only";
import { ALERT_PLACEHOLDERS, type PreviewEmailInput, type PreviewEmailResponse } from "@/lib/contracts/emails";
import { createTranslator } from "@/lib/i18n/translate";
import { ALERT_DIGEST_MAIL, digestLines } from "../alerts/digest-mail";
import { getPlatformConfig } from "../config/platform-config";
import { type AuthedCtx, isAdmin } from "../context";
import { forbidden } from "../errors";
import { configuredBaseUrl } from "../mail/app-url";
import { brandOf, mailLanguage, renderMail } from "../mail/render-mail";
import { assertKnownPlaceholders } from "./template-placeholders";

/**
 * POST /email/preview (administrators): what an alert template's mail would look like, rendered
 * by renderMail itself (the same substitution, escaping and branded HTML as a real alert) with
 * sample values in the chosen language. Nothing is stored or sent. An unknown placeholder is the
 * same 400 as on saving. Empty subject and text preview the default alert mail.
 */
export async function previewEmail(ctx: AuthedCtx, input: PreviewEmailInput): Promise<PreviewEmailResponse> {
  if (!isAdmin(ctx.actor.user)) throw forbidden("Administrators only");
  assertKnownPlaceholders(input);
  const config = await getPlatformConfig(ctx.db);
  const language = mailLanguage(input.language ?? ctx.actor.user.language);
  const t = createTranslator(language);
  const base = configuredBaseUrl() ?? "https://coffre.example";
  const folder = t("admin.mail.sample.folder");
  const actor = t("admin.mail.sample.actor");
  const file = t("admin.mail.sample.file");
  const link = `${base}/files/1`;
  const values: Record<(typeof ALERT_PLACEHOLDERS)[number], string> = {
    recipient: t("admin.mail.sample.recipient"),
    folder,
    file,
    link,
    actor,
    changes: digestLines(
      [
        { kind: "file_created", objectType: "file", name: file, folder, actor, link },
        { kind: "version_created", objectType: "file", name: t("admin.mail.sample.otherFile"), folder, actor, link },
      ],
      language,
    ),
    platform: config.platform_name,
  };
  const custom = input.object.trim() || input.content.trim() ? { object: input.object, content: input.content } : null;
  const mail = renderMail(ALERT_DIGEST_MAIL, { ...values, count: "2" }, { language, custom, brand: brandOf(config) });
  return { ...mail, samples: ALERT_PLACEHOLDERS.map((name) => ({ name, value: values[name] })) };
}
