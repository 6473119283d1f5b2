import { strFromU8, unzipSync } from 'fflate';
import { XMLParser } from 'fast-xml-parser';

/**
 * Reads a workbook back for the tests: unzips it with fflate and parses the
 * XML parts, independently of the writer. Each cell comes back with its value
 * (number or string) and the number format code its style points at.
 */
export interface ReadCell {
  value: string | number;
  format: string | null;
  style: number;
}
export interface ReadSheet {
  name: string;
  /** cells by A1 reference */
  cells: Map<string, ReadCell>;
  xml: string;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  isArray: (name) => ['sheet', 'row', 'c', 'xf', 'numFmt', 'Relationship', 'Override'].includes(name),
  parseTagValue: false,
  trimValues: false,
});
const BUILT_IN_FORMATS: Record<string, string> = { '0': 'General', '3': '#,##0', '14': 'm/d/yyyy' };

export function readXlsx(bytes: Uint8Array) {
  const files = unzipSync(bytes);
  const xml = (name: string) => {
    if (!files[name]) throw new Error(`missing part ${name}`);
    return strFromU8(files[name]);
  };
  const types = parser.parse(xml('[Content_Types].xml'));
  const workbook = parser.parse(xml('xl/workbook.xml'));
  const rels = parser.parse(xml('xl/_rels/workbook.xml.rels'));
  const styles = parser.parse(xml('xl/styles.xml'));
  parser.parse(xml('_rels/.rels'));
  const formats = new Map<string, string>(Object.entries(BUILT_IN_FORMATS));
  for (const format of styles.styleSheet.numFmts?.numFmt ?? []) formats.set(String(format['@numFmtId']), String(format['@formatCode']));
  const xfs = (styles.styleSheet.cellXfs.xf as Array<Record<string, string>>).map((xf) => formats.get(String(xf['@numFmtId'])) ?? null);
  const targets = new Map<string, string>((rels.Relationships.Relationship as Array<Record<string, string>>).map((rel) => [rel['@Id'], rel['@Target']]));

  const sheets: ReadSheet[] = (workbook.workbook.sheets.sheet as Array<Record<string, string>>).map((sheet) => {
    const part = `xl/${targets.get(sheet['@r:id'])}`;
    const sheetXml = xml(part);
    const parsed = parser.parse(sheetXml);
    const cells = new Map<string, ReadCell>();
    for (const row of parsed.worksheet.sheetData.row ?? []) {
      for (const c of row.c ?? []) {
        const style = Number(c['@s'] ?? 0);
        const value = c['@t'] === 'inlineStr' ? String(c.is.t['#text'] ?? c.is.t) : Number(c.v);
        cells.set(c['@r'], { value, format: c['@t'] === 'inlineStr' ? null : xfs[style], style });
      }
    }
    return { name: sheet['@name'], cells, xml: sheetXml };
  });
  return { files: Object.keys(files), sheets, contentTypes: types };
}

/** The YYYY-MM-DD day of an Excel date serial. */
export function dayOfSerial(serial: number): string {
  return new Date(Date.UTC(1899, 11, 30) + serial * 86_400_000).toISOString().slice(0, 10);
}
