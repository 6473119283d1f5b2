import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { apiError } from '../utils/api.server.ts';
import { isMultiLineText } from '../utils/validation.ts';

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
  controlCharacter: 'XML text contains a control character',
} as const;

export const MAX_BANK_XML_BYTES = 5 * 1024 * 1024;
const MAX_DEPTH = 64;
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * The predefined entities and character references. A reference to a control
 * character (&#1;, &#x1B;; only tab, LF and CR are text) or to something that
 * is no character at all (a surrogate, past U+10FFFF) is refused: it would
 * slip past the check of the raw text below and land in the database.
 */
function decodeEntities(text: string): string {
  const decoded = text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (whole, ref: string) => {
    if (!ref.startsWith('#')) return PREDEFINED[ref] ?? whole;
    const code = ref.startsWith('#x') ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    const char = code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : null;
    if (char === null || !isMultiLineText(char)) throw controlCharacter(`${XML_MESSAGES.controlCharacter} (${whole})`);
    return char;
  });
  if (!isMultiLineText(decoded)) throw controlCharacter(XML_MESSAGES.controlCharacter);
  return decoded;
}

function controlCharacter(message: string): Response {
  return apiError(400, message, { file: [message] });
}

type OrderedNode = Record<string, unknown> & { ':@'?: Record<string, string> };

/** CDATA is literal (no references), but may still carry raw control characters. */
function checkedCdata(text: string): string {
  if (!isMultiLineText(text)) throw controlCharacter(XML_MESSAGES.controlCharacter);
  return text;
}
const localName = (name: string) => (name.includes(':') ? name.slice(name.indexOf(':') + 1) : name);

function build(node: OrderedNode, depth: number): XmlNode | null {
  const tag = Object.keys(node).find((key) => key !== ':@');
  if (!tag || tag === '#text' || tag === '#cdata') return null;
  if (depth > MAX_DEPTH) {
    const message = `Malformed XML: elements nested deeper than ${MAX_DEPTH} levels`;
    throw apiError(400, message, { file: [message] });
  }
  const attrs: Record<string, string> = {};
  for (const [key, value] of Object.entries(node[':@'] ?? {})) attrs[key === 'xmlns' ? key : localName(key)] = decodeEntities(String(value));
  const element: XmlNode = { name: localName(tag), attrs, children: [], text: '' };
  let text = '';
  for (const child of (node[tag] as OrderedNode[] | undefined) ?? []) {
    if ('#text' in child) text += decodeEntities(String(child['#text']));
    else if ('#cdata' in child) for (const part of child['#cdata'] as Array<{ '#text'?: unknown }>) text += checkedCdata(String(part['#text'] ?? ''));
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
  let nodes: OrderedNode[];
  try {
    nodes = parser.parse(text) as OrderedNode[];
  } catch (error) {
    // e.g. 'Maximum nested tags exceeded' for a document nested thousands of levels deep.
    throw fail(400, `Malformed XML: ${error instanceof Error ? error.message : String(error)}`);
  }
  const roots = nodes.map((node) => build(node, 0)).filter((node): node is XmlNode => node !== null);
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
