import "server-only";
/**
 * Text on stamped pages and in the audit trail. The standard PDF fonts only encode WinAnsi, and
 * names, document titles and user agents can hold any letter, so text is drawn with embedded
 * (subset) fonts shipped as npm packages: Noto Sans for plain text, Dancing Script for typed
 * signatures. Each family comes as per-script subsets (latin, latin-ext, cyrillic, greek,
 * vietnamese); a string is cut into runs, each drawn with the first subset that has its glyphs.
 * A character no subset has (CJK, Arabic...) is drawn as "?". Without the font files (a trimmed
 * install), Helvetica stands in, with the same "?" for what WinAnsi cannot encode.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import * as fontkitModule from "@pdf-lib/fontkit";
import { type PDFDocument, type PDFFont, type PDFPage, type RGB, StandardFonts } from "pdf-lib";

type Fontkit = typeof fontkitModule;
type Face = ReturnType<Fontkit["create"]>;

// The UMD build's exports land on `default` under Node's ESM loader, directly when bundled.
const fontkit: Fontkit = (fontkitModule as unknown as { default?: Fontkit }).default?.create
  ? (fontkitModule as unknown as { default: Fontkit }).default
  : fontkitModule;

export type FontFamily = "sans" | "sans-bold" | "script";

const SUBSETS = ["latin", "latin-ext", "cyrillic", "cyrillic-ext", "greek", "greek-ext", "vietnamese"];
const FILES: Record<FontFamily, string[]> = {
  sans: SUBSETS.map((s) => `noto-sans/files/noto-sans-${s}-400-normal.woff`),
  "sans-bold": SUBSETS.map((s) => `noto-sans/files/noto-sans-${s}-700-normal.woff`),
  // Dancing Script has latin, latin-ext and vietnamese; other scripts fall back to Noto Sans.
  script: [
    ...["latin", "latin-ext", "vietnamese"].map((s) => `dancing-script/files/dancing-script-${s}-400-normal.woff`),
    ...SUBSETS.map((s) => `noto-sans/files/noto-sans-${s}-400-normal.woff`),
  ],
};
const FALLBACK: Record<FontFamily, StandardFonts> = {
  sans: StandardFonts.Helvetica,
  "sans-bold": StandardFonts.HelveticaBold,
  script: StandardFonts.HelveticaOblique,
};

type LoadedFace = { file: string; bytes: Uint8Array; face: Face };
const loaded = new Map<string, Promise<LoadedFace | null>>();
let warned = false;

function loadFace(file: string): Promise<LoadedFace | null> {
  let face = loaded.get(file);
  if (!face) {
    const where = path.join(/*turbopackIgnore: true*/ process.cwd(), "node_modules", "@fontsource", file);
    face = readFile(where).then(
      (buffer) => {
        const bytes = new Uint8Array(buffer);
        return { file, bytes, face: fontkit.create(bytes) };
      },
      () => null,
    );
    loaded.set(file, face);
  }
  return face;
}

export type TextRun = { font: PDFFont; text: string };

/** One family embedded in one document: measures and draws strings of any script it covers. */
export class FontStack {
  private readonly embedded = new Map<string, Promise<PDFFont>>();
  private readonly faceOf = new Map<number, LoadedFace | null>();

  private constructor(
    private readonly doc: PDFDocument,
    private readonly faces: LoadedFace[],
    private readonly fallback: StandardFonts,
  ) {}

  static async create(doc: PDFDocument, family: FontFamily): Promise<FontStack> {
    const faces = (await Promise.all(FILES[family].map(loadFace))).filter((f): f is LoadedFace => f !== null);
    if (faces.length > 0) doc.registerFontkit(fontkit);
    else if (!warned) {
      warned = true;
      console.warn("[coffre] @fontsource fonts not found under node_modules: stamps and audit trails fall back to Helvetica (Latin-1 only)");
    }
    return new FontStack(doc, faces, FALLBACK[family]);
  }

  /** The text cut into runs of one font each (fonts embedded as they are first needed). */
  async runs(raw: string): Promise<TextRun[]> {
    const text = cleanText(raw);
    if (this.faces.length === 0) return text ? [{ font: await this.embed(this.fallback), text: winAnsiOnly(text) }] : [];
    const runs: { key: string; text: string }[] = [];
    for (const char of text) {
      const code = char.codePointAt(0) ?? 63;
      let face = this.faceOf.get(code);
      if (face === undefined) {
        face = this.faces.find((f) => f.face.hasGlyphForCodePoint(code)) ?? null;
        this.faceOf.set(code, face);
      }
      const key = face?.file ?? this.faces[0].file;
      const shown = face ? char : "?";
      const last = runs.at(-1);
      if (last && last.key === key) last.text += shown;
      else runs.push({ key, text: shown });
    }
    return Promise.all(runs.map(async (r) => ({ font: await this.embed(r.key), text: r.text })));
  }

  async widthOf(text: string, size: number): Promise<number> {
    const runs = await this.runs(text);
    return runs.reduce((sum, r) => sum + r.font.widthOfTextAtSize(r.text, size), 0);
  }

  /** Draws one line whose baseline starts at (x, y), in the page's current coordinates. */
  async draw(page: PDFPage, text: string, options: { x: number; y: number; size: number; color: RGB }) {
    let x = options.x;
    for (const run of await this.runs(text)) {
      page.drawText(run.text, { x, y: options.y, size: options.size, font: run.font, color: options.color });
      x += run.font.widthOfTextAtSize(run.text, options.size);
    }
  }

  /** Lines of at most `width` points at `size`, broken at spaces (or inside a word too long for a line). */
  async wrap(text: string, width: number, size: number): Promise<string[]> {
    const lines: string[] = [];
    for (const paragraph of cleanText(text, true).split("\n")) {
      let line = "";
      for (const word of paragraph.split(/ +/)) {
        const candidate = line ? `${line} ${word}` : word;
        if ((await this.widthOf(candidate, size)) <= width) {
          line = candidate;
          continue;
        }
        if (line) lines.push(line);
        line = "";
        // A word wider than the line is cut where it overflows.
        let rest = [...word];
        while (rest.length > 1 && (await this.widthOf(rest.join(""), size)) > width) {
          // The longest head that fits (at least one character), found by halving.
          let [fits, over] = [1, rest.length];
          while (over - fits > 1) {
            const mid = (fits + over) >> 1;
            if ((await this.widthOf(rest.slice(0, mid).join(""), size)) <= width) fits = mid;
            else over = mid;
          }
          lines.push(rest.slice(0, fits).join(""));
          rest = rest.slice(fits);
        }
        line = rest.join("");
      }
      lines.push(line);
    }
    return lines;
  }

  private embed(key: string): Promise<PDFFont> {
    let font = this.embedded.get(key);
    if (!font) {
      const face = this.faces.find((f) => f.file === key);
      font = face ? this.doc.embedFont(face.bytes, { subset: true }) : this.doc.embedFont(key);
      this.embedded.set(key, font);
    }
    return font;
  }
}

/** NFC, no control or bidi-override characters; tabs and (unless kept) line breaks become spaces. */
export function cleanText(text: string, keepNewlines = false): string {
  const normalised = text.normalize("NFC").replace(/\r\n?/g, "\n");
  const spaced = keepNewlines ? normalised.replace(/\t/g, " ") : normalised.replace(/[\t\n]/g, " ");
  return spaced.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, "");
}

/** WinAnsi (what Helvetica encodes) is Latin-1 plus a few typographic signs. */
function winAnsiOnly(text: string): string {
  return [...text].map((c) => ((c.codePointAt(0) ?? 0) <= 0xff || "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ".includes(c) ? c : "?")).join("");
}
