import "server-only";
import { PDFArray, PDFDict, PDFName, PDFRef, PDFStream, type PDFDocument, type PDFObject } from "pdf-lib";

/**
 * What a reader runs or changes by itself in a PDF (ISO 32000-2, 12.6.4): scripts, programs
 * launched, forms sent or reset, other files opened, media played, layers and annotations shown
 * or hidden. A signer sees the pages as our viewer draws them, where nothing runs; a reader that
 * ran these after the seal could show or do something else than what was signed (issue 25,
 * finding 17). A click on a link to a page of the document or to a web address (GoTo, URI,
 * Named, Thread) stays allowed.
 */
const ACTIVE_ACTIONS = new Set([
  "JavaScript",
  "Launch",
  "SubmitForm",
  "ResetForm",
  "ImportData",
  "GoToR",
  "GoToE",
  "GoToDp",
  "Rendition",
  "RichMediaExecute",
  "Movie",
  "Sound",
  "Hide",
  "SetOCGState",
  "Trans",
  "GoTo3DView",
]);

const AA = PDFName.of("AA");
const A = PDFName.of("A");
const NEXT = PDFName.of("Next");
const OPEN_ACTION = PDFName.of("OpenAction");
const NAMES = PDFName.of("Names");
const JAVASCRIPT = PDFName.of("JavaScript");
const XFA = PDFName.of("XFA");
const S = PDFName.of("S");
const JS = PDFName.of("JS");
const TYPE = PDFName.of("Type");

/** Where the document carries active content, in words (empty: none). */
export function findActiveContent(doc: PDFDocument): string[] {
  return walk(doc, false);
}

/**
 * Removes the active content, with the actions and scripts themselves (pdf-lib writes every
 * object it holds, referenced or not), and says what it removed. Stamping does this on every
 * document, so nothing sealed runs by itself, whichever way the document came in.
 */
export function stripActiveContent(doc: PDFDocument): string[] {
  return walk(doc, true);
}

function walk(doc: PDFDocument, strip: boolean): string[] {
  const context = doc.context;
  const found = new Set<string>();
  const resolve = (object: PDFObject | undefined) => (object instanceof PDFRef ? context.lookup(object) : object);
  const typeOf = (object: PDFObject | undefined) => {
    const action = resolve(object);
    const type = action instanceof PDFDict ? action.get(S) : undefined;
    return type instanceof PDFName ? type.decodeText() : null;
  };
  /** The first active action of a chain (/Next, one action or an array of them), or null. */
  const activeIn = (object: PDFObject | undefined, depth = 0): string | null => {
    const value = resolve(object);
    if (depth > 32 || value === undefined) return null;
    if (value instanceof PDFArray) {
      for (let i = 0; i < value.size(); i++) {
        const inner = activeIn(value.get(i), depth + 1);
        if (inner) return inner;
      }
      return null;
    }
    if (!(value instanceof PDFDict)) return null;
    const type = typeOf(value);
    if (type && ACTIVE_ACTIONS.has(type)) return type;
    return activeIn(value.get(NEXT), depth + 1);
  };
  const doomed: PDFRef[] = [];
  const remove = (dict: PDFDict, key: PDFName, what: string) => {
    found.add(what);
    if (strip) dict.delete(key);
  };

  const inspect = (dict: PDFDict, where: string) => {
    if (dict.has(AA)) remove(dict, AA, `automatic actions (/AA) of ${where}`);
    const open = dict.get(OPEN_ACTION);
    // A destination (an array) or a GoTo only opens the document at a page.
    const openType = open === undefined ? null : typeOf(open);
    if (openType !== null && openType !== "GoTo") remove(dict, OPEN_ACTION, `an action run when the document opens (/OpenAction /${openType})`);
    for (const key of [A, NEXT]) {
      const type = activeIn(dict.get(key));
      if (type) remove(dict, key, `an action (/${type}) of ${where}`);
    }
    const names = resolve(dict.get(NAMES));
    if (names instanceof PDFDict && names.has(JAVASCRIPT) && isCatalog(dict)) {
      remove(names, JAVASCRIPT, "document-level JavaScript (/Names /JavaScript)");
    }
    const xfa = dict.get(XFA);
    if (xfa !== undefined) {
      // One stream, or an array of (name, stream) pairs: the packets go with the key.
      for (const part of xfa instanceof PDFArray ? xfa.asArray() : [xfa]) if (part instanceof PDFRef) doomed.push(part);
      remove(dict, XFA, "an XFA form, which may hold scripts (/XFA)");
    }
  };

  const visit = (object: PDFObject, where: string, depth: number) => {
    if (depth > 64) return;
    const dict = object instanceof PDFStream ? object.dict : object instanceof PDFDict ? object : null;
    if (dict) {
      inspect(dict, describe(dict, where));
      for (const [, value] of dict.entries()) if (!(value instanceof PDFRef)) visit(value, where, depth + 1);
    } else if (object instanceof PDFArray) {
      for (let i = 0; i < object.size(); i++) {
        const value = object.get(i);
        if (!(value instanceof PDFRef)) visit(value, where, depth + 1);
      }
    }
  };

  // Every object of the file, reachable or not: an action is found wherever it hides.
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    visit(object, `object ${ref.objectNumber}`, 0);
    // The active actions themselves, and their scripts, go too (once nothing points to them).
    if (object instanceof PDFDict && ACTIVE_ACTIONS.has(typeOf(object) ?? "")) {
      doomed.push(ref);
      const script = object.get(JS);
      if (script instanceof PDFRef) doomed.push(script);
    }
  }
  if (strip) for (const ref of doomed) context.delete(ref);
  return [...found];
}

const isCatalog = (dict: PDFDict) => dict.get(TYPE)?.toString() === "/Catalog";

/** The part of the document a dictionary is, for the message. */
function describe(dict: PDFDict, where: string): string {
  if (isCatalog(dict)) return "the document";
  const type = dict.get(TYPE)?.toString();
  if (type === "/Page") return `a page (${where})`;
  if (type === "/Annot" || dict.has(PDFName.of("Subtype")) || dict.has(PDFName.of("FT"))) return `an annotation or form field (${where})`;
  return where;
}
