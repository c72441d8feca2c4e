import { describe, expect, it } from "vitest";
import { en } from "@/lib/i18n/catalogues/en";
import { cn } from "@/lib/i18n/catalogues/cn";
import { de } from "@/lib/i18n/catalogues/de";
import { es } from "@/lib/i18n/catalogues/es";
import { fr } from "@/lib/i18n/catalogues/fr";
import { it as italian } from "@/lib/i18n/catalogues/it";
import { pt } from "@/lib/i18n/catalogues/pt";
import { matchLanguage, parseAcceptLanguage, resolveLanguage } from "@/lib/i18n/languages";
import { createTranslator } from "@/lib/i18n/translate";

describe("interface language", () => {
  it("reads Accept-Language by preference", () => {
    expect(parseAcceptLanguage("de;q=0.5, fr-CA, en;q=0.8, *;q=0.1")).toEqual(["fr-CA", "en", "de"]);
    expect(parseAcceptLanguage("en;q=0, it")).toEqual(["it"]);
    expect(parseAcceptLanguage(null)).toEqual([]);
  });

  it("maps browser tags to the contract's codes, Chinese to cn, else English", () => {
    expect(matchLanguage(["zh-Hans-CN", "en"])).toBe("cn");
    expect(matchLanguage(["pt-BR"])).toBe("pt");
    expect(matchLanguage(["nl", "de-AT"])).toBe("de");
    expect(matchLanguage(["nl"])).toBe("en");
  });

  it("uses the account's language unless it is auto", () => {
    expect(resolveLanguage("fr", ["de"])).toBe("fr");
    expect(resolveLanguage("auto", ["de"])).toBe("de");
    expect(resolveLanguage("klingon", [])).toBe("en");
  });

  it("translates with placeholders and falls back to English", () => {
    expect(createTranslator("fr")("error.tooMany", { seconds: 42 })).toBe("Trop de tentatives. Réessayez dans 42 s.");
    expect(createTranslator("de")("home.welcome", { name: "Ada" })).toBe("Willkommen, Ada");
    // Keys a partial catalogue lacks read in English rather than blank.
    expect(createTranslator("it")("forgot.sent")).toBeTruthy();
  });
});

describe("catalogues", () => {
  const keys = Object.keys(en);

  it("French is complete", () => {
    expect(Object.keys(fr).sort()).toEqual([...keys].sort());
    for (const key of keys) expect(fr[key as keyof typeof fr].trim()).not.toBe("");
  });

  it.each([
    ["es", es],
    ["pt", pt],
    ["cn", cn],
    ["de", de],
    ["it", italian],
  ])("%s is complete, with no unknown keys and the same placeholders", (_, catalogue) => {
    expect(Object.keys(catalogue).sort()).toEqual([...keys].sort());
    for (const [key, text] of Object.entries(catalogue)) {
      expect(text!.trim(), key).not.toBe("");
      expect(keys, key).toContain(key);
      const placeholders = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
      expect(placeholders(text!), key).toEqual(placeholders(en[key as keyof typeof en]));
    }
  });
});
