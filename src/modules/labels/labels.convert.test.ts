import { PDFDict, PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import { convertCarrierLabel, issuedLabelFormat } from './labels.convert.js';
import { convertCarrierLabels } from './labels.merge.js';

/** A carrier's PDF label: one page per size given (points), each with a line of text. */
async function carrierPdf(...sizes: [number, number][]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const [w, h] of sizes) doc.addPage([w, h]).drawText('CARRIER LABEL', { x: 10, y: h - 30, size: 12, font });
  return Buffer.from(await doc.save());
}

describe('a carrier PDF label in our formats', () => {
  it('is served as is for pdf_4x6, and never as PNG or ZPL (that would re-rasterise)', async () => {
    const pdf = await carrierPdf([288, 432]);
    expect((await convertCarrierLabel({ format: 'PDF', bytes: pdf }, 'pdf_4x6'))?.body).toBe(pdf);
    expect(await convertCarrierLabel({ format: 'PDF', bytes: pdf }, 'png_4x6')).toBeNull();
    expect(await convertCarrierLabel({ format: 'PDF', bytes: pdf }, 'zpl_4x6')).toBeNull();
  });

  it('is placed whole on letter pages for pdf_letter, each page carried over as it is (a 4×6 and a 4×8 page)', async () => {
    const pdf = await carrierPdf([288, 432], [288, 576]);
    const letter = await convertCarrierLabel({ format: 'PDF', bytes: pdf }, 'pdf_letter');
    expect(letter?.content_type).toBe('application/pdf');
    const doc = await PDFDocument.load(letter!.body);
    expect(doc.getPages().map((p) => [p.getWidth(), p.getHeight()])).toEqual([
      [612, 792],
      [612, 792],
    ]);
    for (const page of doc.getPages()) {
      // The carrier's own content and font came along (copied, not redrawn), moved onto the page.
      expect(page.node.Resources()?.lookup(PDFName.of('Font'), PDFDict)?.keys().length).toBe(1);
      expect(page.getCropBox()).toEqual({ x: 0, y: 0, width: 612, height: 792 });
    }
  });

  it('takes a page with no content stream, and is unavailable (null, a 422) for a file that is no PDF', async () => {
    const bare = Buffer.from(
      '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 288 432]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
    );
    const letter = await convertCarrierLabel({ format: 'PDF', bytes: bare }, 'pdf_letter');
    expect((await PDFDocument.load(letter!.body)).getPageCount()).toBe(1);
    expect(await convertCarrierLabel({ format: 'PDF', bytes: Buffer.from('not a pdf at all') }, 'pdf_letter')).toBeNull();
  });

  it('names the format each issued image is served as without conversion', () => {
    expect(issuedLabelFormat('PDF')).toBe('pdf_4x6');
    expect(issuedLabelFormat('ZPL')).toBe('zpl_4x6');
    expect(issuedLabelFormat('PNG')).toBe('png_4x6');
    expect(issuedLabelFormat('GIF')).toBe('png_4x6');
  });
});

describe("a multi-piece shipment's carrier labels as one file (convertCarrierLabels)", () => {
  const png = (width: number, height: number, grey: number) => {
    const img = new PNG({ width, height });
    img.data.fill(grey);
    for (let i = 3; i < img.data.length; i += 4) img.data[i] = 255;
    return PNG.sync.write(img);
  };

  it('PDFs page after page, a page per package; ZPL one document after the other', async () => {
    const merged = await convertCarrierLabels(
      [
        { format: 'PDF', bytes: await carrierPdf([288, 432]) },
        { format: 'PDF', bytes: await carrierPdf([288, 432], [288, 432]) },
      ],
      'pdf_4x6',
    );
    expect((await PDFDocument.load(merged!.body)).getPageCount()).toBe(3);
    const zpl = await convertCarrierLabels(
      [
        { format: 'ZPL', bytes: Buffer.from('^XA^FDONE^FS^XZ') },
        { format: 'ZPL', bytes: Buffer.from('^XA^FDTWO^FS^XZ') },
      ],
      'zpl_4x6',
    );
    expect(zpl!.body.toString()).toBe('^XA^FDONE^FS^XZ\n^XA^FDTWO^FS^XZ\n');
  });

  it('images stacked top to bottom in one PNG, pixels copied (the narrower one padded white), or a PDF page each', async () => {
    const stacked = await convertCarrierLabels(
      [
        { format: 'PNG', bytes: png(4, 3, 0) },
        { format: 'PNG', bytes: png(2, 5, 128) },
      ],
      'png_4x6',
    );
    const img = PNG.sync.read(stacked!.body);
    expect([img.width, img.height]).toEqual([4, 8]);
    const at = (x: number, y: number) => img.data[(y * img.width + x) * 4];
    expect([at(0, 0), at(3, 2), at(0, 3), at(1, 7), at(3, 7)]).toEqual([0, 0, 128, 128, 255]);
    const pdf = await convertCarrierLabels(
      [
        { format: 'PNG', bytes: png(4, 6, 0) },
        { format: 'PNG', bytes: png(4, 6, 0) },
      ],
      'pdf_4x6',
    );
    expect((await PDFDocument.load(pdf!.body)).getPageCount()).toBe(2);
  });

  it('null (a 422 for the caller, never a 500) when one cannot become the format or a file cannot be read', async () => {
    expect(
      await convertCarrierLabels(
        [
          { format: 'PDF', bytes: await carrierPdf([288, 432]) },
          { format: 'ZPL', bytes: Buffer.from('^XA^XZ') },
        ],
        'pdf_4x6',
      ),
    ).toBeNull();
    expect(
      await convertCarrierLabels(
        [
          { format: 'PDF', bytes: Buffer.from('%PDF-1.4 not really') },
          { format: 'PDF', bytes: Buffer.from('garbage') },
        ],
        'pdf_4x6',
      ),
    ).toBeNull();
  });
});
