/**
 * The one module that imports pdfkit. A PDF here is a readable stream of pages drawn with
 * pdfkit's drawing calls (`PdfDocument`): no first page of its own, no margins (every caller
 * places its own boxes), compressed, titled. Font files a document uses are registered on it
 * and embedded as subsets. pdfkit (with fontkit) is loaded on the first PDF, not at start-up
 * (about 0.3 s of CPU, at each of the dozens of server starts in a test run).
 */

/** pdfkit's drawing surface: pages, paths, text, images; a readable stream of the file. */
export type PdfDocument = PDFKit.PDFDocument;

/** A page size in points ([width, height]) or a paper name ('LETTER', 'A4'). */
export type PdfPageSize = string | [number, number];

export async function createPdf(opts: { title: string; size?: PdfPageSize }): Promise<PdfDocument> {
  const { default: PDFDocument } = await import('pdfkit');
  return new PDFDocument({
    ...(opts.size === undefined ? {} : { size: opts.size }),
    margin: 0,
    autoFirstPage: false,
    compress: true,
    info: { Title: opts.title, Creator: 'convention-photo-service' },
  });
}
