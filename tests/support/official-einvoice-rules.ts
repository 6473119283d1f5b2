import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The official e-invoice rules (vendor/einvoice-rules: the UBL 2.1 XSD with
 * the Croatian extension, the EN 16931 schematron and the Croatian CIUS
 * schematron), run over many documents at once: xmllint validates the XSD for
 * all of them in one call, and one Java (Saxon-HE) run applies both
 * schematron layers to all of them (official-einvoice-rules.xsl), as
 * `vendor/einvoice-rules/validate --hr` does for one.
 *
 * Needs Java, Saxon-HE and xmllint (Debian: default-jre-headless,
 * libsaxonhe-java, libxml2-utils; .ci/run installs them). Without them it
 * throws, saying so: the official verdict is part of the suite, never skipped.
 */

const root = path.resolve(import.meta.dirname, '../..');
const RULES = path.join(root, 'vendor/einvoice-rules');
const DRIVER = path.join(import.meta.dirname, 'official-einvoice-rules.xsl');
const SAXON_JAR = process.env.SAXON_JAR ?? '/usr/share/java/Saxon-HE.jar';

/**
 * Warnings every Croatian invoice draws: the Croatian CIUS requires IssueTime
 * (UBL-CR-006), SellerContact (UBL-CR-200) and the tax category names
 * (UBL-CR-504, UBL-CR-597), which EN 16931 only warns about
 * (vendor/einvoice-rules/README.md).
 */
export const EXPECTED_WARNINGS = ['UBL-CR-006', 'UBL-CR-200', 'UBL-CR-504', 'UBL-CR-597'];

export interface OfficialFinding {
  layer: 'EN16931' | 'HR-CIUS';
  severity: 'fatal' | 'warning';
  id: string;
  text: string;
  location: string;
}

export interface OfficialVerdict {
  name: string;
  /** xmllint's schema errors (the UBL 2.1 XSD with the HR extension). */
  xsdErrors: string[];
  findings: OfficialFinding[];
  /** The ids of the fatal assertions, each once, sorted. */
  fatal: string[];
  /** No XSD error and no fatal assertion: what `validate --hr` exits 0 for. */
  valid: boolean;
}

export const MISSING_TOOLS =
  'The official e-invoice rules need Java, Saxon-HE and xmllint: apt-get install -y default-jre-headless libsaxonhe-java libxml2-utils (.ci/run installs them when missing)';

function assertTools() {
  const missing: string[] = [];
  if (spawnSync('java', ['-version'], { stdio: 'ignore' }).status !== 0) missing.push('java');
  if (!fs.existsSync(SAXON_JAR)) missing.push(`Saxon-HE (${SAXON_JAR})`);
  if (spawnSync('xmllint', ['--version'], { stdio: 'ignore' }).status !== 0) missing.push('xmllint');
  if (missing.length) throw new Error(`${MISSING_TOOLS}; missing: ${missing.join(', ')}`);
}

/** xmllint over a group of files against one schema: errors per file. */
function xsdErrors(files: string[], schema: string): Map<string, string[]> {
  const errors = new Map<string, string[]>(files.map((file) => [file, []]));
  for (let start = 0; start < files.length; start += 200) {
    const group = files.slice(start, start + 200);
    const run = spawnSync('xmllint', ['--noout', '--nonet', '--schema', schema, ...group], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (run.status !== 0 && run.status !== 3 && run.status !== 4) throw new Error(`xmllint could not use ${schema} (exit ${run.status}): ${run.stderr}`);
    for (const line of run.stderr.split('\n')) {
      const file = group.find((candidate) => line.startsWith(`${candidate}:`) || line === `${candidate} fails to validate`);
      if (file && !line.endsWith(' fails to validate') && !line.endsWith(' validates')) errors.get(file)!.push(line.slice(file.length + 1));
      else if (file && line.endsWith(' fails to validate') && errors.get(file)!.length === 0) errors.get(file)!.push('fails to validate');
    }
  }
  return errors;
}

/** The official verdict on each document, in the order given. */
export function validateOfficially(documents: Array<{ name: string; xml: string }>): OfficialVerdict[] {
  assertTools();
  if (documents.length === 0) return [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'finflow-official-rules-'));
  try {
    const files = documents.map((document, index) => {
      const file = path.join(dir, `${String(index).padStart(5, '0')}.xml`);
      fs.writeFileSync(file, document.xml);
      return file;
    });
    const creditNotes = new Set(files.filter((_file, index) => /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<(\w+:)?CreditNote[\s>]/.test(documents[index].xml)));
    const xsd = new Map([
      ...xsdErrors(
        files.filter((file) => !creditNotes.has(file)),
        path.join(RULES, 'xsd/maindoc/UBL-Invoice-2.1.xsd'),
      ),
      ...xsdErrors([...creditNotes], path.join(RULES, 'xsd/maindoc/UBL-CreditNote-2.1.xsd')),
    ]);

    const list = path.join(dir, 'documents.txt');
    fs.writeFileSync(list, `${files.join('\n')}\n`);
    const run = spawnSync(
      'java',
      [
        '-XX:+UseSerialGC',
        '-XX:TieredStopAtLevel=1',
        '-cp',
        SAXON_JAR,
        'net.sf.saxon.Transform',
        '-it:main',
        `-xsl:${DRIVER}`,
        `list=${list}`,
        'input=',
        `en-xslt=${path.join(RULES, 'xslt/EN16931-UBL-validation.xslt')}`,
        `hr-xslt=${path.join(RULES, 'xslt/HR-CIUS-EXT-EN16931-UBL.xslt')}`,
      ],
      { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
    );
    if (run.status !== 0) throw new Error(`the schematron run failed (exit ${run.status}): ${run.stderr}`);

    const findings = new Map<string, OfficialFinding[]>(files.map((file) => [file, []]));
    let current: OfficialFinding[] | undefined;
    for (const line of run.stdout.split('\n')) {
      if (line.startsWith('### ')) {
        current = findings.get(line.slice(4));
        continue;
      }
      const match = /^(EN16931|HR-CIUS) (fatal|warning) (\S+) \| (.*) \| (.*)$/.exec(line);
      if (match && current) {
        current.push({ layer: match[1] as OfficialFinding['layer'], severity: match[2] as OfficialFinding['severity'], id: match[3], text: match[4], location: match[5] });
      }
    }
    const checked = [...findings.keys()].filter((file) => run.stdout.includes(`### ${file}\n`));
    if (checked.length !== files.length) throw new Error(`the schematron run checked ${checked.length} of ${files.length} documents:\n${run.stdout.slice(-2000)}`);

    return documents.map((document, index) => {
      const file = files[index];
      const own = findings.get(file)!;
      const fatal = [...new Set(own.filter((finding) => finding.severity === 'fatal').map((finding) => finding.id))].sort();
      const errors = xsd.get(file) ?? [];
      return { name: document.name, xsdErrors: errors, findings: own, fatal, valid: errors.length === 0 && fatal.length === 0 };
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** One line per problem of each document that is not valid: for a failing test's message. */
export function describeFailures(verdicts: OfficialVerdict[]): string[] {
  return verdicts
    .filter((verdict) => !verdict.valid)
    .flatMap((verdict) => [
      ...verdict.xsdErrors.map((error) => `${verdict.name}: XSD ${error}`),
      ...verdict.findings
        .filter((finding) => finding.severity === 'fatal')
        .map((finding) => `${verdict.name}: ${finding.layer} ${finding.id} ${finding.text} (${finding.location})`),
    ]);
}
