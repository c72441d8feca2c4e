import { GUEST_USER_ID, LOG_OBJECT_TYPES, LOG_TYPES, type LogEntryResponse, type LogObjectType, type LogType } from "@/lib/contracts/logs";
import type { MessageKey, Translate } from "@/lib/i18n/translate";

/**
 * A log entry told in the reader's language from its structured fields (type, statut, actor,
 * object), never from the English `message` the server stored: that one stays for the CSV and the
 * entry's details.
 */

/** Where the console or the app shows an object: a page, or a file whose folder must be looked up. */
export type LogObjectLink = { href: string } | { fileId: number };

export type LogMessagePart = { kind: "text"; text: string } | { kind: "actor"; text: string } | { kind: "object"; text: string; link: LogObjectLink | null };

type Entry = Pick<LogEntryResponse, "type" | "statut" | "user_id" | "user" | "object_type" | "object_id" | "object">;

export const isLogType = (type: string): type is LogType => (LOG_TYPES as readonly string[]).includes(type);
export const isLogObjectType = (type: string | null): type is LogObjectType => type !== null && (LOG_OBJECT_TYPES as readonly string[]).includes(type);

export const logTypeLabelKey = (type: LogType): MessageKey => `admin.logs.type.${type}`;
export const logObjectTypeLabelKey = (type: LogObjectType): MessageKey => `admin.logs.objectType.${type}`;
const messageKey = (type: LogType): MessageKey => `admin.logs.msg.${type}`;
const phraseKey = (type: LogObjectType): MessageKey => `admin.logs.objectPhrase.${type}`;

/** The type as a label; a type this console does not know yet reads as its constant. */
export function logTypeLabel(type: string, t: Translate): string {
  return isLogType(type) ? t(logTypeLabelKey(type)) : type;
}

export function logObjectTypeLabel(type: string, t: Translate): string {
  return isLogObjectType(type) ? t(logObjectTypeLabelKey(type)) : type;
}

/** The actor's name; the guest account (id "0") is a signed-out visitor, or the platform's own jobs. */
export function logActorName(entry: Pick<Entry, "user_id" | "user">, t: Translate): string {
  if (entry.user_id !== GUEST_USER_ID) return entry.user;
  return entry.user === "system" ? t("admin.logs.actor.system") : t("admin.logs.actor.guest");
}

/** The object's page; none once the object is deleted, or where no screen shows it. */
export function logObjectLink(entry: Entry): LogObjectLink | null {
  if (entry.type === "ADMLLOG_DELETE" || !isLogObjectType(entry.object_type)) return null;
  const id = entry.object_id;
  const numericId = id !== null && /^\d+$/.test(id) ? Number(id) : null;
  const search = (keyword: string | null) => (keyword ? `?keyword=${encodeURIComponent(keyword)}` : "");
  switch (entry.object_type) {
    case "file":
      return numericId ? { fileId: numericId } : null;
    case "folder":
      return numericId ? { href: `/files/${numericId}` } : null;
    case "user":
      return { href: `/admin/users${search(entry.object)}` };
    case "group":
      return { href: `/admin/groups${search(entry.object)}` };
    case "share":
    case "share_email":
    case "ulink":
    case "ulink_email":
      return { href: "/links" };
    case "signature":
      return numericId ? { href: `/signatures/${numericId}` } : { href: "/signatures" };
    case "workflow":
      return { href: "/workflows" };
    case "archive":
      return { href: "/archives" };
    case "identity_provider":
      return { href: "/admin/identity" };
    case "oauth2_app":
    case "oauth2_token":
      return { href: "/admin/oauth" };
    case "job":
      return { href: "/admin/jobs" };
    case "email":
      return { href: "/admin/mail" };
    case "config":
      return { href: "/admin/config" };
    case "invitation":
      return { href: "/admin/invitations" };
    default:
      return null;
  }
}

/** Splits a catalogue template on `{placeholder}`s, each replaced by the parts `fill` gives. */
function expand(template: string, fill: (name: string) => LogMessagePart[] | null): LogMessagePart[] {
  const parts: LogMessagePart[] = [];
  let last = 0;
  for (const match of template.matchAll(/\{(\w+)\}/g)) {
    if (match.index > last) parts.push({ kind: "text", text: template.slice(last, match.index) });
    parts.push(...(fill(match[1]) ?? [{ kind: "text", text: match[0] }]));
    last = match.index + match[0].length;
  }
  if (last < template.length) parts.push({ kind: "text", text: template.slice(last) });
  return parts;
}

/** The entry's sentence, in parts so that a screen can make the object a link. */
export function logMessageParts(entry: Entry, t: Translate): LogMessagePart[] {
  const name = entry.object ?? (entry.object_id ? `#${entry.object_id}` : "—");
  const object: LogMessagePart = { kind: "object", text: name, link: logObjectLink(entry) };
  const actor: LogMessagePart = { kind: "actor", text: logActorName(entry, t) };
  const phrase = isLogObjectType(entry.object_type) ? t(phraseKey(entry.object_type)) : t("admin.logs.objectPhrase.other");
  const fill = (placeholder: string) =>
    placeholder === "actor" ? [actor] : placeholder === "name" ? [object] : placeholder === "object" ? expand(phrase, (p) => (p === "name" ? [object] : null)) : null;
  const sentence = expand(isLogType(entry.type) ? t(messageKey(entry.type)) : t("admin.logs.msg.other"), fill);
  // A refused sign-in says so already; any other failed action says it failed.
  if (entry.statut !== "ADMLLOG_ERROR" || entry.type === "ADMLLOG_LOGIN_FAILED") return sentence;
  return expand(t("admin.logs.msg.failure"), (p) => (p === "message" ? sentence : null));
}

/** The sentence as plain text (titles, tests). */
export const logMessageText = (entry: Entry, t: Translate): string =>
  logMessageParts(entry, t)
    .map((part) => part.text)
    .join("");
