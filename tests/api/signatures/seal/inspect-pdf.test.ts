import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/server/errors";
import { inspectPdf, MAX_SIGNABLE_PDF_BYTES } from "@/lib/server/signatures/seal/inspect-pdf";
import {
  damagedPdf,
  encryptedPdf,
  headerOnlyPdf,
  makePdf,
  onePagePdf,
  ownerOnlyEncryptedPdf,
  signaturePng,
  threePagePdf,
} from "../../../helpers/pdf-fixtures";

async function refusal(bytes: Uint8Array): Promise<AppError> {
  const error = await inspectPdf(bytes).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("inspectPdf", () => {
  it("gives the size of each page in points", async () => {
    expect(await inspectPdf(await onePagePdf())).toEqual({ pages: [{ width: 595.28, height: 841.89 }] });
    expect(await inspectPdf(await threePagePdf())).toEqual({
      pages: [
        { width: 595.28, height: 841.89 },
        { width: 612, height: 792 },
        { width: 841.89, height: 595.28 },
      ],
    });
  });

  it("measures pages as a reader shows them: turned by /Rotate, cut by the CropBox", async () => {
    expect((await inspectPdf(await makePdf({ rotate: 90 }))).pages).toEqual([{ width: 841.89, height: 595.28 }]);
    expect((await inspectPdf(await makePdf({ rotate: -90 }))).pages).toEqual([{ width: 841.89, height: 595.28 }]);
    expect((await inspectPdf(await makePdf({ rotate: 180 }))).pages).toEqual([{ width: 595.28, height: 841.89 }]);
    const doc = await PDFDocument.load(await onePagePdf());
    doc.getPage(0).setCropBox(20, 30, 400, 500);
    expect((await inspectPdf(await doc.save())).pages).toEqual([{ width: 400, height: 500 }]);
  });

  it("refuses an encrypted PDF with 422 pdf_encrypted and the reason", async () => {
    for (const bytes of [await encryptedPdf(), await ownerOnlyEncryptedPdf()]) {
      const error = await refusal(bytes);
      expect(error.status).toBe(422);
      expect(error.code).toBe("pdf_encrypted");
      expect(error.message).toMatch(/encrypted/i);
    }
  });

  it("refuses a damaged PDF with 422 pdf_damaged and the reason", async () => {
    const cut = await refusal(await damagedPdf());
    expect(cut.status).toBe(422);
    expect(cut.code).toBe("pdf_damaged");
    expect(cut.message).toMatch(/^The PDF is damaged and cannot be signed: .+/);

    const empty = await refusal(headerOnlyPdf());
    expect(empty.code).toBe("pdf_damaged");

    const png = await refusal(await signaturePng());
    expect(png.code).toBe("pdf_damaged");
    expect(png.message).toContain("does not start with a PDF header");
  });

  it("caps signable documents at 50 MiB unless SIGNATURE_MAX_PDF_MB says otherwise", async () => {
    expect(MAX_SIGNABLE_PDF_BYTES).toBe(50 * 1024 * 1024);
    const error = await refusal(new Uint8Array(MAX_SIGNABLE_PDF_BYTES + 1));
    expect(error.status).toBe(413);
    expect(error.code).toBe("payload_too_large");
  });
});
