/** The tests' own CSV reader (used by *.test.ts only), independent of app/exports/csv.ts that writes the files. */

/**
 * RFC 4180 with the given separator: quoted fields may hold the separator,
 * CRLF and doubled quotes; every record ends with CRLF. A bare CR, LF or
 * quote throws, so a file the writer got wrong cannot read as right.
 */
export function parseCsv(text: string, separator: ',' | ';'): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let index = 0;
  while (index < text.length) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 2;
        continue;
      }
      if (char === '"') quoted = false;
      else field += char;
      index += 1;
      continue;
    }
    if (char === '"' && field === '') quoted = true;
    else if (char === separator) {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      index += 1;
    } else if (char === '\r' || char === '\n' || char === '"') throw new Error(`bare ${JSON.stringify(char)} at ${index}`);
    else field += char;
    index += 1;
  }
  if (field !== '' || record.length > 0) throw new Error('the last record does not end with CRLF');
  return records;
}
