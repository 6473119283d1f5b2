// ---------------------------------------------------------------------------
// A minimal, valid one-page PDF, so document downloads open in any viewer.

function pdfText(text: string): string {
  // Helvetica with WinAnsi has no č, ć, đ: transliterate, and escape PDF string delimiters.
  return text
    .replace(/đ/g, 'dj')
    .replace(/Đ/g, 'Dj')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '-')
    .replace(/([\\()])/g, '\\$1');
}

export function minimalPdf(title: string, lines: string[]): Buffer {
  const content = ['BT', '/F1 16 Tf', '56 780 Td', `(${pdfText(title)}) Tj`, '/F1 11 Tf', ...lines.flatMap((line) => ['0 -22 Td', `(${pdfText(line)}) Tj`]), 'ET'].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(pdf.length);
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  // Everything is ASCII, so string offsets are byte offsets.
  return Buffer.from(pdf, 'latin1');
}
