import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { sniffMarkup, sniffType } from "@/lib/server/files/content-type";
import { inlineSafetyHeaders, servedType } from "@/lib/server/downloads/served-type";
import { fakeMp3, fakeMp4, fakeZip, makePdf } from "../previews/fixtures";

// Pure logic: the type a stored file gets from its first bytes and its name (api.md, "Served types").
const text = (s: string) => new Uint8Array(Buffer.from(s));
const png = () => sharp({ create: { width: 4, height: 4, channels: 3, background: "#c00" } }).png().toBuffer();

describe("sniffType", () => {
  it("gives a PDF type only to PDF bytes, and image types only to image bytes", async () => {
    expect(await sniffType(makePdf(["x"]), "report.pdf")).toBe("application/pdf");
    expect(await sniffType(makePdf(["x"]), "report.bin")).toBe("application/pdf");
    expect(await sniffType(text("<html><script>alert(1)</script></html>"), "report.pdf")).toBe("application/octet-stream");
    expect(await sniffType(text("plain words"), "report.pdf")).toBe("application/octet-stream");
    expect(await sniffType(new Uint8Array([0, 1, 2, 3, 4, 5]), "report.pdf")).toBe("application/octet-stream");
    expect(await sniffType(await png(), "photo.png")).toBe("image/png");
    // The bytes win over the name when they carry a signature.
    expect(await sniffType(await png(), "report.pdf")).toBe("image/png");
    expect(await sniffType(text("<svg xmlns='http://www.w3.org/2000/svg'><script>1</script></svg>"), "logo.png")).toBe("application/octet-stream");
  });

  it("never gives markup an image or PDF type; keeps markup and text types a name gives", async () => {
    const svg = text(`<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>`);
    expect(await sniffType(svg, "chart.svg")).toBe("image/svg+xml");
    expect(await sniffType(svg, "chart.pdf")).toBe("application/octet-stream");
    expect(await sniffType(svg, "chart.jpg")).toBe("application/octet-stream");
    expect(await sniffType(text("<!DOCTYPE html><p>hi"), "page.html")).toBe("text/html");
    expect(await sniffType(text("<!DOCTYPE html><p>hi"), "page.svg")).toBe("text/html");
    expect(await sniffType(text("<note>x</note>"), "data.xml")).toBe("application/xml");
    // A text file quoting a page stays text (served as text/plain under nosniff).
    expect(await sniffType(text("see <script>alert(1)</script>"), "notes.txt")).toBe("text/plain");
    expect(await sniffType(text("a,b\n1,2\n"), "table.csv")).toBe("text/csv");
    expect(await sniffType(text("<html>"), "no-extension")).toBe("application/octet-stream");
  });

  it("keeps container formats their name gives, and media types only with their signature", async () => {
    expect(await sniffType(fakeZip(), "letter.docx")).toBe("application/vnd.openxmlformats-officedocument.wordprocessingml.document");
    expect(await sniffType(fakeZip(), "archive.zip")).toBe("application/zip");
    expect(await sniffType(fakeZip(), "page.html")).toBe("application/zip");
    expect(await sniffType(fakeMp4(), "clip.mp4")).toBe("video/mp4");
    expect(await sniffType(fakeMp3(), "song.mp3")).toBe("audio/mpeg");
    expect(await sniffType(text("0000"), "clip.mp4")).toBe("application/octet-stream");
    expect(await sniffType(new Uint8Array(0), "empty.txt")).toBe("text/plain");
    expect(await sniffType(new Uint8Array(0), "empty.pdf")).toBe("application/octet-stream");
  });

  it("recognises markup as browsers do: after white space and a byte order mark, and tags further in", () => {
    expect(sniffMarkup(text("\uFEFF  \n<HTML><body>"))).toBe("html");
    expect(sniffMarkup(text("<!-- comment -->"))).toBe("html");
    expect(sniffMarkup(text("<svg>"))).toBe("svg");
    expect(sniffMarkup(text("<?xml version='1.0'?><root/>"))).toBe("xml");
    expect(sniffMarkup(text("Dear reader,\n<script>steal()</script>"))).toBe("html");
    expect(sniffMarkup(text("a < b and <bold> is not a tag we know"))).toBeNull();
    expect(sniffMarkup(text("<about"))).toBeNull();
  });
});

describe("serving a stored type", () => {
  it("shows only PDFs outside the sandbox, always with nosniff, and cleans odd stored types", () => {
    expect(inlineSafetyHeaders("application/pdf")).toEqual({ "X-Content-Type-Options": "nosniff" });
    for (const type of ["text/html", "image/svg+xml", "application/xml", "application/xhtml+xml", "application/octet-stream", "image/png"]) {
      expect(inlineSafetyHeaders(type)["Content-Security-Policy"]).toMatch(/^sandbox;/);
      expect(inlineSafetyHeaders(type)["X-Content-Type-Options"]).toBe("nosniff");
    }
    expect(servedType("Text/HTML; charset=utf-8")).toBe("text/html");
    expect(servedType("")).toBe("application/octet-stream");
    expect(servedType("nonsense")).toBe("application/octet-stream");
    expect(servedType(null)).toBe("application/octet-stream");
  });
});
