import { strToU8, zipSync } from 'fflate';
import { spreadsheetText } from './cell-text.ts';
import { escapeXml } from '../xml/writer.ts';

/**
 * A minimal Office Open XML workbook writer (ECMA-376): just the parts Excel,
 * LibreOffice and Numbers need to open a file, strings inline, numbers as real
 * numeric cells with a number format, dates as date serials. No library: an
 * XLSX is a zip (fflate) of a few XML parts.
 */
export type XlsxCell =
  | null
  | string
  | { number: number; format: 'eur' | 'integer' | 'decimal' | 'percent' }
  /** A calendar day, YYYY-MM-DD. */
  | { date: string }
  | { header: string };

export interface XlsxSheet {
  /** At most 31 characters, none of []:*?/\ (Excel's limits); checked. */
  name: string;
  /** Column widths in characters. */
  widths?: number[];
  rows: XlsxCell[][];
}

/** Style index (cellXfs position in STYLES below) of each kind of cell. */
const STYLE = { text: 0, eur: 1, integer: 2, decimal: 3, percent: 4, date: 5, header: 6 } as const;

const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">
<numFmts count="4"><numFmt numFmtId="164" formatCode="#,##0.00\\ &quot;€&quot;"/><numFmt numFmtId="165" formatCode="0.0"/><numFmt numFmtId="166" formatCode="0.0\\ &quot;%&quot;"/><numFmt numFmtId="167" formatCode="dd.mm.yyyy."/></numFmts>
<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>
<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>
<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>
<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>
<cellXfs count="7"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="3" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="166" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="167" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>
<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>
</styleSheet>`;

/** The number format code behind each numeric style, for readers and tests. */
export const XLSX_NUMBER_FORMATS = { eur: '#,##0.00\\ "€"', integer: '#,##0', decimal: '0.0', percent: '0.0\\ "%"', date: 'dd.mm.yyyy.' } as const;
export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A1-style column letters of a 0-based index. */
export function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

const EXCEL_EPOCH = Date.UTC(1899, 11, 30);
/** Excel's date serial of a YYYY-MM-DD day (days since 30 Dec 1899; 1900 leap bug irrelevant after March 1900). */
export function excelDate(day: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) throw new Error(`not a YYYY-MM-DD day: ${JSON.stringify(day)}`);
  return (Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) - EXCEL_EPOCH) / 86_400_000;
}

function cellXml(cell: XlsxCell, ref: string): string {
  if (cell === null) return '';
  if (typeof cell === 'string' || 'header' in cell) {
    const text = typeof cell === 'string' ? cell : cell.header;
    const style = typeof cell === 'string' ? '' : ` s="${STYLE.header}"`;
    // xml:space keeps leading and trailing blanks, which Excel would otherwise trim. An inline string is
    // never evaluated, but copied into another sheet or saved as CSV it would be: neutralised as in the CSVs.
    return `<c r="${ref}" t="inlineStr"${style}><is><t xml:space="preserve">${escapeXml(spreadsheetText(text))}</t></is></c>`;
  }
  if ('date' in cell) return `<c r="${ref}" s="${STYLE.date}"><v>${excelDate(cell.date)}</v></c>`;
  if (!Number.isFinite(cell.number)) throw new Error(`cell ${ref}: not a finite number`);
  return `<c r="${ref}" s="${STYLE[cell.format]}"><v>${String(cell.number)}</v></c>`;
}

function sheetXml(sheet: XlsxSheet): string {
  const cols = sheet.widths?.length
    ? `<cols>${sheet.widths.map((width, index) => `<col min="${index + 1}" max="${index + 1}" width="${width}" customWidth="1"/>`).join('')}</cols>`
    : '';
  const rows = sheet.rows
    .map((cells, rowIndex) => {
      const r = rowIndex + 1;
      return `<row r="${r}">${cells.map((cell, columnIndex) => cellXml(cell, `${columnName(columnIndex)}${r}`)).join('')}</row>`;
    })
    .join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${cols}<sheetData>${rows}</sheetData></worksheet>`;
}

const SHEET_NAME = /^[^[\]:*?/\\]{1,31}$/;

export function buildXlsx(sheets: XlsxSheet[]): Uint8Array<ArrayBuffer> {
  if (sheets.length === 0) throw new Error('a workbook needs at least one sheet');
  const names = new Set<string>();
  for (const sheet of sheets) {
    if (!SHEET_NAME.test(sheet.name) || sheet.name.startsWith("'")) throw new Error(`invalid sheet name ${JSON.stringify(sheet.name)}`);
    if (names.has(sheet.name.toLowerCase())) throw new Error(`duplicate sheet name ${JSON.stringify(sheet.name)}`);
    names.add(sheet.name.toLowerCase());
  }
  const numbered = sheets.map((sheet, index) => ({ sheet, n: index + 1 }));
  const files: Record<string, Uint8Array> = {
    '[Content_Types].xml': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>${numbered
      .map(({ n }) => `<Override PartName="/xl/worksheets/sheet${n}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`)
      .join('')}</Types>`),
    '_rels/.rels': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
    'xl/workbook.xml': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${numbered
      .map(({ sheet, n }) => `<sheet name="${escapeXml(sheet.name)}" sheetId="${n}" r:id="rId${n}"/>`)
      .join('')}</sheets></workbook>`),
    'xl/_rels/workbook.xml.rels': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${numbered
      .map(({ n }) => `<Relationship Id="rId${n}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${n}.xml"/>`)
      .join(
        '',
      )}<Relationship Id="rId${sheets.length + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`),
    'xl/styles.xml': strToU8(STYLES),
  };
  for (const { sheet, n } of numbered) files[`xl/worksheets/sheet${n}.xml`] = strToU8(sheetXml(sheet));
  // zipSync allocates a plain ArrayBuffer; the narrower type lets a Response take the bytes as they are.
  return zipSync(files, { level: 6 }) as Uint8Array<ArrayBuffer>;
}
