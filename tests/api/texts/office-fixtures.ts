import { ZipFile } from "yazl";

/**
 * Office documents built by hand at test time (no binary fixtures): the smallest Office Open XML
 * parts LibreOffice reads. Texts are escaped for XML.
 */
const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
const xml = (s: string) => Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${s}`);
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships";

function relationships(entries: { id: string; type: string; target: string }[]): Buffer {
  return xml(`<Relationships xmlns="${PKG_REL}">${entries.map((e) => `<Relationship Id="${e.id}" Type="${REL}/${e.type}" Target="${e.target}"/>`).join("")}</Relationships>`);
}

function contentTypes(overrides: Record<string, string>): Buffer {
  return xml(
    `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${Object.entries(
      overrides,
    )
      .map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`)
      .join("")}</Types>`,
  );
}

async function zipOf(parts: Record<string, Buffer>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, data] of Object.entries(parts)) zip.addBuffer(data, name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A workbook of several sheets, each a list of rows of cells (inline strings). */
export async function makeXlsx(sheets: string[][][]): Promise<Buffer> {
  const SML = "application/vnd.openxmlformats-officedocument.spreadsheetml";
  const parts: Record<string, Buffer> = {
    "[Content_Types].xml": contentTypes({
      "/xl/workbook.xml": `${SML}.sheet.main+xml`,
      ...Object.fromEntries(sheets.map((_, i) => [`/xl/worksheets/sheet${i + 1}.xml`, `${SML}.worksheet+xml`])),
    }),
    "_rels/.rels": relationships([{ id: "rId1", type: "officeDocument", target: "xl/workbook.xml" }]),
    "xl/workbook.xml": xml(
      `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${REL}"><sheets>${sheets
        .map((_, i) => `<sheet name="Sheet${i + 1}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
        .join("")}</sheets></workbook>`,
    ),
    "xl/_rels/workbook.xml.rels": relationships(sheets.map((_, i) => ({ id: `rId${i + 1}`, type: "worksheet", target: `worksheets/sheet${i + 1}.xml` }))),
  };
  sheets.forEach((rows, i) => {
    const cells = rows
      .map((row, r) => `<row r="${r + 1}">${row.map((cell, c) => `<c r="${String.fromCharCode(65 + c)}${r + 1}" t="inlineStr"><is><t>${escape(cell)}</t></is></c>`).join("")}</row>`)
      .join("");
    parts[`xl/worksheets/sheet${i + 1}.xml`] = xml(`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${cells}</sheetData></worksheet>`);
  });
  return zipOf(parts);
}

/** A presentation of several slides, each one text box. */
export async function makePptx(slides: string[]): Promise<Buffer> {
  const PML = "application/vnd.openxmlformats-officedocument.presentationml";
  const P = `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="${REL}" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"`;
  const parts: Record<string, Buffer> = {
    "[Content_Types].xml": contentTypes({
      "/ppt/presentation.xml": `${PML}.presentation.main+xml`,
      ...Object.fromEntries(slides.map((_, i) => [`/ppt/slides/slide${i + 1}.xml`, `${PML}.slide+xml`])),
    }),
    "_rels/.rels": relationships([{ id: "rId1", type: "officeDocument", target: "ppt/presentation.xml" }]),
    "ppt/presentation.xml": xml(
      `<p:presentation ${P}><p:sldIdLst>${slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join("")}</p:sldIdLst><p:sldSz cx="9144000" cy="6858000"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>`,
    ),
    "ppt/_rels/presentation.xml.rels": relationships(slides.map((_, i) => ({ id: `rId${i + 1}`, type: "slide", target: `slides/slide${i + 1}.xml` }))),
  };
  slides.forEach((text, i) => {
    parts[`ppt/slides/slide${i + 1}.xml`] = xml(
      `<p:sld ${P}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/><p:sp><p:nvSpPr><p:cNvPr id="2" name="Text"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr><a:xfrm><a:off x="457200" y="457200"/><a:ext cx="8229600" cy="1143000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr><p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US" sz="2800"/><a:t>${escape(text)}</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`,
    );
  });
  return zipOf(parts);
}
