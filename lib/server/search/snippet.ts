/**
 * ts_headline's answer turned into what search results carry: plain text and the offsets of the
 * matched words in it. The headline is asked to mark the matches with STX/ETX (control characters
 * no extracted text keeps: they are replaced by spaces before the headline is made), never with
 * HTML, since a document's text is hostile: the client puts the text in text nodes, and the marks
 * from the offsets.
 */
export const MARK_START = "\u0002";
export const MARK_END = "\u0003";
/** A snippet is cut to this many UTF-16 code units from a little before its first match (a "word" can be huge). */
export const SNIPPET_MAX = 320;

export type Snippet = { snippet: string; highlights: [number, number][] };

/** Bidirectional formatting characters: left out, so that a text cannot reorder what is shown around it. */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** Whitespace and control characters (page breaks included) read as one space. */
const BLANK = /[\s\p{Cc}]/u;

/** Plain text and highlight offsets ([start, end), in UTF-16 code units, JavaScript string indices). */
export function snippetOf(headline: string): Snippet {
  let text = "";
  const highlights: [number, number][] = [];
  let open = false;
  let start = -1;
  let pendingSpace = false;
  for (const ch of headline) {
    if (ch === MARK_START) {
      open = true;
      start = -1;
    } else if (ch === MARK_END) {
      if (open && start >= 0) highlights.push([start, text.length]);
      open = false;
    } else if (BLANK.test(ch)) {
      pendingSpace = true;
    } else if (!BIDI_CONTROLS.test(ch)) {
      if (pendingSpace && text) text += " ";
      pendingSpace = false;
      // A mark starts at its first character, never on the space before it.
      if (open && start < 0) start = text.length;
      text += ch;
    }
  }
  return cut({ snippet: text, highlights });
}

/** Words kept before the first match: a client showing one line still shows the match. */
const LEAD = 40;
const ELLIPSIS = "… ";

/**
 * Starts at most LEAD code units before the first match (at a word start, after "… ") and stops
 * at SNIPPET_MAX code units; highlights moved and clipped.
 */
function cut(found: Snippet): Snippet {
  const text = found.snippet;
  const first = found.highlights[0]?.[0] ?? 0;
  let from = 0;
  if (first > LEAD) {
    const space = text.indexOf(" ", first - LEAD);
    from = space >= 0 && space < first ? space + 1 : first;
  }
  const prefix = from > 0 ? ELLIPSIS : "";
  let to = Math.min(text.length, from + SNIPPET_MAX - prefix.length);
  // Never split a surrogate pair.
  if (isLowSurrogate(text.charCodeAt(to))) to -= 1;
  if (from === 0 && to === text.length) return found;
  const shift = prefix.length - from;
  const highlights = found.highlights
    .map(([s, e]): [number, number] => [Math.max(s, from) + shift, Math.min(e, to) + shift])
    .filter(([s, e]) => e > s);
  return { snippet: prefix + text.slice(from, to), highlights };
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
