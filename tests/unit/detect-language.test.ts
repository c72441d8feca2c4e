import { describe, expect, it } from "vitest";
import { configurationOf, detectLanguage, tesseractLanguages } from "@/lib/server/texts/detect-language";

// Issue 33: a text is indexed with the configuration of its language, detected from its stop words.
describe("detectLanguage", () => {
  it.each([
    ["english", "The contract has been signed by the parties and it is now in force for the year."],
    ["french", "Le contrat est signé par les parties pour une durée de deux ans avec les mêmes conditions."],
    ["german", "Der Vertrag ist von den Parteien unterschrieben und wird auch für das nächste Jahr gelten."],
    ["spanish", "El contrato fue firmado por las partes y también hay una copia para los abogados, pero muy tarde."],
    ["italian", "Il contratto è stato firmato dalle parti e non sono previste modifiche per questo anno, anche se più tardi."],
    ["portuguese", "O contrato foi assinado pelas partes e não há alterações previstas para este ano, também já pago."],
  ])("%s", (language, text) => {
    expect(detectLanguage(text, "simple")).toBe(language);
  });

  it("takes the fallback when the text says too little, and 'simple' for Chinese", () => {
    expect(detectLanguage("Invoice 2024-113", "french")).toBe("french");
    expect(detectLanguage("", "simple")).toBe("simple");
    expect(detectLanguage("本合同由双方签署，自签署之日起生效，有效期为两年。", "english")).toBe("simple");
  });

  it("maps account languages to configurations and to Tesseract's installed languages", () => {
    expect(configurationOf("fr")).toBe("french");
    expect(configurationOf("cn")).toBe("simple");
    expect(configurationOf("auto")).toBe("simple");
    const installed = new Set(["eng", "fra", "chi_sim"]);
    expect(tesseractLanguages("fr", installed)).toBe("fra+eng");
    expect(tesseractLanguages("cn", installed)).toBe("chi_sim+eng");
    expect(tesseractLanguages("en", installed)).toBe("eng");
    expect(tesseractLanguages("auto", installed)).toBe("eng");
    expect(tesseractLanguages("de", installed)).toBe("eng");
  });
});
