import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npx tsx scripts/extract-kpd-codes.ts`: writes app/einvoices/kpd-2025.json,
 * the KPD 2025 codes the official Croatian CIUS accepts (code list
 * HR-BR-CL-2), taken from the vendored HR-CIUS XSLT. Run it after updating
 * vendor/einvoice-rules; app/einvoices/kpd.test.ts fails while the two differ.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const HR_CIUS_XSLT = path.join(root, 'vendor/einvoice-rules/xslt/HR-CIUS-EXT-EN16931-UBL.xslt');
export const KPD_JSON = path.join(root, 'app/einvoices/kpd-2025.json');

/** The codes listed in the HR-BR-CL-2 assertion, in the list's order. */
export function extractKpdCodes(xslt: string): string[] {
  const start = xslt.indexOf('id="HR-BR-CL-2"');
  if (start === -1) throw new Error('the HR-CIUS XSLT has no HR-BR-CL-2 assertion');
  // The assertion's test attribute repeats the list: contains(' 01.11.11 01.11.12 … ', …).
  const list = /contains\('((?: \d{2}\.\d{2}\.\d{2})+) '/.exec(xslt.slice(start));
  if (!list) throw new Error('no code list found in the HR-BR-CL-2 assertion');
  return list[1].trim().split(' ');
}

export function kpdJson(codes: string[]): string {
  const versions = fs.readFileSync(path.join(root, 'vendor/einvoice-rules/VERSIONS'), 'utf8');
  const source = /^HR_CIUS=(.*)$/m.exec(versions)?.[1] ?? 'vendor/einvoice-rules';
  return `${JSON.stringify({ list: 'HR-BR-CL-2 (KPD 2025, listID "CG")', source, codes }, null, 0).replace(/","/g, '",\n"')}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const codes = extractKpdCodes(fs.readFileSync(HR_CIUS_XSLT, 'utf8'));
  fs.writeFileSync(KPD_JSON, kpdJson(codes));
  console.log(`wrote ${codes.length} codes to ${path.relative(root, KPD_JSON)}`);
}
