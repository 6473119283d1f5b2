import { createRequire } from 'node:module';
import type PDFDocumentClass from 'pdfkit';
import { lazyRequire } from '../utils/lazy-require.server.ts';

/**
 * One way to write a PDF (agreements, statements of account): pdfkit with
 * DejaVu Sans embedded, because the PDF standard fonts carry no č, ć or đ.
 * The drawing callback gets the document with the regular font selected;
 * `FONT.bold` switches to bold. The result is the whole file in memory:
 * these documents are a few pages.
 */
const require = createRequire(import.meta.url);

export const FONT = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
} as const;

export type PdfDocument = PDFKit.PDFDocument;

export interface PdfInfo {
  title: string;
  subject?: string;
  /** Fixed so that the same input gives the same bytes (tests, stored documents' checksums). */
  createdAt?: Date;
}

/** A column of a table drawn row by row (tableRow). */
export interface PdfColumn {
  title: string;
  x: number;
  width: number;
  align: 'left' | 'right';
}

/** One row of a table at the current height, on a new page when the page is full; cells wrap within their column. */
export function tableRow(doc: PdfDocument, columns: readonly PdfColumn[], cells: string[], options: { bold?: boolean } = {}) {
  if (doc.y > doc.page.height - 90) doc.addPage();
  const y = doc.y;
  doc.font(options.bold ? FONT.bold : FONT.regular).fontSize(8);
  let bottom = y;
  columns.forEach((column, index) => {
    doc.text(cells[index] ?? '', column.x, y, { width: column.width, align: column.align, lineBreak: true });
    bottom = Math.max(bottom, doc.y);
  });
  doc.x = 50;
  doc.y = bottom + 3;
}

const pdfDocument = lazyRequire<typeof PDFDocumentClass>('pdfkit');

export function renderPdf(info: PdfInfo, draw: (doc: PdfDocument) => void): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const PDFDocument = pdfDocument();
    const doc = new PDFDocument({
      size: 'A4',
      margin: 50,
      lang: 'hr-HR',
      info: { Title: info.title, ...(info.subject ? { Subject: info.subject } : {}), Producer: 'FinFlow', Creator: 'FinFlow', CreationDate: info.createdAt ?? new Date() },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    try {
      doc.font(FONT.regular);
      draw(doc);
      doc.end();
    } catch (error) {
      reject(error);
    }
  });
}
