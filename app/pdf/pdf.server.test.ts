import { describe, expect, it } from 'vitest';
import { FONT, renderPdf } from './pdf.server.ts';
import { pdfText } from '../../tests/support/pdf-text.ts';

describe('renderPdf', () => {
  it('writes a PDF whose text reads back with the Croatian letters', async () => {
    const pdf = await renderPdf({ title: 'Ugovor o faktoringu' }, (doc) => {
      doc.font(FONT.bold).fontSize(16).text('Ugovor o faktoringu br. UF-2026-001');
      doc.font(FONT.regular).fontSize(10).text('Klijent: Čakovečki mlinovi d.d., Đakovo — naknada 1.234,56 €, šifra Ž');
    });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = await pdfText(pdf);
    expect(text).toContain('Ugovor o faktoringu br. UF-2026-001');
    expect(text).toContain('Čakovečki mlinovi d.d., Đakovo — naknada 1.234,56 €, šifra Ž');
  });

  it('gives the same bytes for the same input and time', async () => {
    const createdAt = new Date('2026-11-27T10:00:00Z');
    const draw = (doc: PDFKit.PDFDocument) => doc.text('Izvadak');
    const [a, b] = await Promise.all([renderPdf({ title: 'x', createdAt }, draw), renderPdf({ title: 'x', createdAt }, draw)]);
    expect(a.equals(b)).toBe(true);
  });
});
