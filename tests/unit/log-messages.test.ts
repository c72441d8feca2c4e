import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LOG_OBJECT_TYPES, LOG_TYPES } from "@/lib/contracts/logs";
import { cn } from "@/lib/i18n/catalogues/cn";
import { de } from "@/lib/i18n/catalogues/de";
import { en } from "@/lib/i18n/catalogues/en";
import { es } from "@/lib/i18n/catalogues/es";
import { fr } from "@/lib/i18n/catalogues/fr";
import { it as italian } from "@/lib/i18n/catalogues/it";
import { pt } from "@/lib/i18n/catalogues/pt";
import { logMessageParts, logMessageText, logObjectLink, logTypeLabel } from "@/components/admin/log-vocabulary";
import { createTranslator } from "@/lib/i18n/translate";

const CATALOGUES = { en, fr, de, es, it: italian, pt, cn } as Record<string, Record<string, string>>;

/** Every .ts file under a folder of the repository. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sources(full) : full.endsWith(".ts") ? [full] : [];
  });
}

/** What the server code can write into a log entry, read from the source itself. */
function writtenByServer() {
  const root = path.resolve(__dirname, "../..");
  const files = [...sources(path.join(root, "lib/server")), ...sources(path.join(root, "app/api")), path.join(root, "server.ts")];
  const types = new Set<string>();
  const objectTypes = new Set<string>();
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    for (const [, type] of text.matchAll(/"(ADMLLOG_[A-Z_]+)"/g)) if (type !== "ADMLLOG_OK" && type !== "ADMLLOG_ERROR" && type !== "ADMLLOG_") types.add(type);
    // objectType: "file", and the alternatives of a conditional (item.folderId === null ? "file" : "folder").
    for (const [, value] of text.matchAll(/objectType:\s*([^,}\n]+)/g)) for (const [, literal] of value.matchAll(/"([a-z0-9_]+)"/g)) objectTypes.add(literal);
  }
  return { types, objectTypes };
}

describe("log vocabulary", () => {
  const written = writtenByServer();

  it("knows every type and object type the server writes", () => {
    // Sanity: the scan found the writers at all.
    expect(written.types.size).toBeGreaterThanOrEqual(9);
    expect(written.objectTypes.has("folder")).toBe(true);
    for (const type of written.types) expect(LOG_TYPES, `${type} written in lib/server but missing from LOG_TYPES`).toContain(type);
    for (const type of written.objectTypes) expect(LOG_OBJECT_TYPES, `objectType "${type}" written in lib/server but missing from LOG_OBJECT_TYPES`).toContain(type);
  });

  it.each(Object.keys(CATALOGUES))("has a label and a sentence for each of them in %s", (language) => {
    const catalogue = CATALOGUES[language];
    const needed = [
      ...LOG_TYPES.flatMap((type) => [`admin.logs.type.${type}`, `admin.logs.msg.${type}`]),
      ...LOG_OBJECT_TYPES.flatMap((type) => [`admin.logs.objectType.${type}`, `admin.logs.objectPhrase.${type}`]),
      "admin.logs.msg.other",
      "admin.logs.msg.failure",
      "admin.logs.actor.guest",
      "admin.logs.actor.system",
    ];
    for (const key of needed) {
      expect(catalogue[key]?.trim(), `${language}: ${key}`).toBeTruthy();
      const placeholders = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
      expect(placeholders(catalogue[key]), `${language}: ${key}`).toEqual(placeholders(en[key as keyof typeof en]));
    }
    // An object phrase names its object; a sentence names an actor or an object.
    for (const type of LOG_OBJECT_TYPES) expect(catalogue[`admin.logs.objectPhrase.${type}`], `${language}: ${type}`).toContain("{name}");
    for (const type of LOG_TYPES) expect(catalogue[`admin.logs.msg.${type}`], `${language}: ${type}`).toMatch(/\{(actor|object|name)\}/);
  });
});

describe("log messages", () => {
  const base = { user_id: "7", user: "Grace Hopper", statut: "ADMLLOG_OK" as const, object_type: "folder", object_id: "42", object: "Projets" };

  it("tells an entry in the reader's language from its fields, not from the stored English message", () => {
    const entry = { ...base, type: "ADMLLOG_INSERT" };
    expect(logMessageText(entry, createTranslator("fr"))).toBe("Grace Hopper a créé le dossier Projets");
    expect(logMessageText(entry, createTranslator("de"))).toBe("Grace Hopper hat den Ordner Projets erstellt");
    expect(logMessageText(entry, createTranslator("en"))).toBe("Grace Hopper created the folder Projets");
    expect(logTypeLabel("ADMLLOG_LOGIN_FAILED", createTranslator("fr"))).toBe("Connexion refusée");
  });

  it("names the guest account and the platform, says when an action failed, and keeps unknown types readable", () => {
    const fr = createTranslator("fr");
    expect(logMessageText({ ...base, type: "ADMLLOG_LOGIN_FAILED", statut: "ADMLLOG_ERROR", user_id: "0", user: "guest", object_type: "user", object: "bob" }, fr)).toBe("Connexion refusée pour l’utilisateur bob");
    expect(logMessageText({ ...base, type: "ADMLLOG_DELETE", user_id: "0", user: "system", object_type: "file", object: "a.txt" }, fr)).toBe("La plateforme a supprimé le fichier a.txt");
    expect(logMessageText({ ...base, type: "ADMLLOG_UPDATE", statut: "ADMLLOG_ERROR", object_type: "identity_provider", object: "LDAP" }, fr)).toBe("Grace Hopper a modifié le fournisseur d’identité LDAP (échec)");
    expect(logMessageText({ ...base, type: "ADMLLOG_SOMETHING_NEW", object_type: "gadget", object: null }, fr)).toBe("Grace Hopper : #42");
    expect(logTypeLabel("ADMLLOG_SOMETHING_NEW", fr)).toBe("ADMLLOG_SOMETHING_NEW");
  });

  it("links the object where the app shows it, and not once it is deleted", () => {
    const t = createTranslator("en");
    const object = (entry: Parameters<typeof logMessageParts>[0]) => logMessageParts(entry, t).find((p) => p.kind === "object");
    expect(object({ ...base, type: "ADMLLOG_UPDATE" })).toEqual({ kind: "object", text: "Projets", link: { href: "/files/42" } });
    expect(object({ ...base, type: "ADMLLOG_INSERT", object_type: "file", object_id: "9", object: "a.txt" })?.link).toEqual({ fileId: 9 });
    expect(object({ ...base, type: "ADMLLOG_UPDATE", object_type: "user", object: "bob smith" })?.link).toEqual({ href: "/admin/users?keyword=bob%20smith" });
    expect(object({ ...base, type: "ADMLLOG_DELETE" })?.link).toBeNull();
    expect(logObjectLink({ ...base, type: "ADMLLOG_UPDATE", object_type: "trash" })).toBeNull();
  });
});
