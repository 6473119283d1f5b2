import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Comments cite the repository's own docs (docs/decisions/010-product-docs-and-seed-layout.md):
 * every `docs/….md#anchor` they name exists with that heading, and nothing
 * cites the outside specification (`spec §`, `DESIGN §`) or an issue number.
 */

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SCANNED = ['app', 'db', 'worker', 'scripts', 'tests', 'bench', 'emails', 'docs', 'README.md', 'server.ts'];
const TEXT = /\.(ts|tsx|js|mjs|css|md|sql|mjml)$/;

function files(entry: string): string[] {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return [];
  if (fs.statSync(full).isFile()) return [entry];
  return fs
    .readdirSync(full, { withFileTypes: true })
    .filter((child) => child.name !== 'node_modules' && !child.name.startsWith('.'))
    .flatMap((child) => (child.isDirectory() ? files(path.join(entry, child.name)) : TEXT.test(child.name) ? [path.join(entry, child.name)] : []));
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(doc: string): Set<string> {
  const text = fs.readFileSync(path.join(root, doc), 'utf8');
  return new Set(Array.from(text.matchAll(/^#{1,6} (.+)$/gm), ([, heading]) => anchorOf(heading.trim())));
}

const scanned = SCANNED.flatMap(files).filter((file) => file !== 'app/docs-citations.test.ts');

describe('citations of docs/', () => {
  it('name docs and headings that exist', () => {
    const broken: string[] = [];
    for (const file of scanned) {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      for (const [, doc, anchor] of text.matchAll(/\b(docs\/[\w./-]+?\.md)(?:#([\w-]+))?/g)) {
        if (!fs.existsSync(path.join(root, doc))) broken.push(`${file}: ${doc}`);
        else if (anchor && !anchorsOf(doc).has(anchor)) broken.push(`${file}: ${doc}#${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('never cite the outside specification or an issue number', () => {
    const outside = scanned.flatMap((file) =>
      fs
        .readFileSync(path.join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, index) => (/\b(spec|Spec|DESIGN) §|§\d|\b[Ii]ssue \d+/.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(outside).toEqual([]);
  });

  it('reads headings as GitHub anchors', () => {
    expect(anchorOf('E-invoices (Fiskalizacija 2.0)')).toBe('e-invoices-fiskalizacija-20');
    expect(anchorOf('Roles and permissions')).toBe('roles-and-permissions');
  });
});
