import fs from 'node:fs';

/** The e-invoice tests' fixtures and their one way of breaking them (used by *.test.ts only). */

/** A file of ./fixtures as text. */
export function einvoiceFixture(name: string): string {
  return fs.readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
}

/** Replaces exactly one occurrence, so a test cannot silently mutate nothing (or an example stay unbroken). */
export function mutate(xml: string, from: string, to: string): string {
  const at = xml.indexOf(from);
  if (at === -1 || xml.indexOf(from, at + 1) !== -1) throw new Error(`expected exactly one ${JSON.stringify(from)}`);
  return xml.slice(0, at) + to + xml.slice(at + from.length);
}
