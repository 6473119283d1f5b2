import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { apiError } from '../utils/api.server.ts';

/**
 * Safe reading of bank XML (camt.053 in, our own pain.001 back in tests and
 * the export check). Refused before parsing: anything past the size cap, non
 * UTF-8, and any DOCTYPE/ENTITY declaration, which rules out external
 * entities and entity expansion at once (bank formats never need them).
 * The result is a small element tree with namespace prefixes dropped: ISO
 * 20022 messages use one default namespace, checked by the caller.
 */
export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

export const XML_MESSAGES = {
  tooLarge: 'Bank statement XML is larger than 5 MB',
  doctype: 'XML with a DOCTYPE/entities is not accepted',
  encoding: 'Bank statement XML must be UTF-8 encoded',
  empty: 'Bank statement XML is empty',
} as const;

export const MAX_BANK_XML_BYTES = 5 * 1024 * 1024;
const MAX_DEPTH = 64;
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (whole, ref: string) => {
    const code = ref.startsWith('#x') ? parseInt(ref.slice(2), 16) : ref.startsWith('#') ? parseInt(ref.slice(1), 10) : NaN;
    if (!Number.isNaN(code)) return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    return PREDEFINED[ref] ?? whole;
  });
}

type OrderedNode = Record<string, unknown> & { ':@'?: Record<string, string> };
const localName = (name: string) => (name.includes(':') ? name.slice(name.indexOf(':') + 1) : name);

function build(node: OrderedNode, depth: number): XmlNode | null {
  const tag = Object.keys(node).find((key) => key !== ':@');
  if (!tag || tag === '#text' || tag === '#cdata') return null;
  if (depth > MAX_DEPTH) throw apiError(400, `Malformed XML: elements nested deeper than ${MAX_DEPTH} levels`);
  const attrs: Record<string, string> = {};
  for (const [key, value] of Object.entries(node[':@'] ?? {})) attrs[key === 'xmlns' ? key : localName(key)] = decodeEntities(String(value));
  const element: XmlNode = { name: localName(tag), attrs, children: [], text: '' };
  let text = '';
  for (const child of (node[tag] as OrderedNode[] | undefined) ?? []) {
    if ('#text' in child) text += decodeEntities(String(child['#text']));
    else if ('#cdata' in child) for (const part of child['#cdata'] as Array<{ '#text'?: unknown }>) text += String(part['#text'] ?? '');
    else {
      const built = build(child, depth + 1);
      if (built) element.children.push(built);
    }
  }
  element.text = text.trim();
  return element;
}

export function parseBankXml(input: Buffer | string, messages: typeof XML_MESSAGES = XML_MESSAGES): XmlNode {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  const fail = (status: number, message: string) => apiError(status, message, { file: [message] });
  if (bytes.length > MAX_BANK_XML_BYTES) throw fail(413, messages.tooLarge);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw fail(400, messages.encoding);
  }
  if (text.trim() === '') throw fail(400, messages.empty);
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) throw fail(400, messages.doctype);
  const declared = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([^"']+)["']/i.exec(text)?.[1];
  if (declared && !/^utf-?8$/i.test(declared)) throw fail(400, messages.encoding);
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw fail(400, `Malformed XML at line ${valid.err.line}, column ${valid.err.col}: ${valid.err.msg}`);
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
    cdataPropName: '#cdata',
    commentPropName: false,
    // Only the predefined entities and character references, decoded above.
    processEntities: false,
    htmlEntities: false,
  });
  const roots = (parser.parse(text) as OrderedNode[]).map((node) => build(node, 0)).filter((node): node is XmlNode => node !== null);
  if (roots.length !== 1) throw fail(400, 'Malformed XML: exactly one root element is required');
  return roots[0];
}

/** The first descendant along `path` ('GrpHdr/MsgId'), or null. */
export function child(node: XmlNode | null | undefined, path: string): XmlNode | null {
  let current: XmlNode | null | undefined = node;
  for (const step of path.split('/')) {
    current = current?.children.find((c) => c.name === step);
    if (!current) return null;
  }
  return current ?? null;
}

/** Every child named `name` (one level). */
export function children(node: XmlNode | null | undefined, name: string): XmlNode[] {
  return node?.children.filter((c) => c.name === name) ?? [];
}

export function textAt(node: XmlNode | null | undefined, path: string): string | null {
  const found = child(node, path);
  return found && found.text !== '' ? found.text : null;
}

/** Element text with the five XML characters escaped. */
export function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}
