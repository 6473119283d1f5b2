import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { apiError } from '../utils/api.server.ts';
import type { RefusalParams } from '../utils/refusals.ts';
import { isMultiLineText } from '../utils/validation.ts';

/**
 * The one safe XML reader (bank statements, e-invoices). Refused before any
 * parsing: more than `maxBytes` (413), bytes that are not UTF-8 or a declared
 * encoding other than UTF-8, an empty document, and any DOCTYPE or ENTITY
 * declaration — that one check rules out external entities (XXE) and entity
 * expansion ("billion laughs") at once; no format FinFlow reads needs them.
 * Malformed XML is refused with the validator's line and column, nesting past
 * MAX_DEPTH levels with 400, and a control character with 400 whether it is
 * written raw or as a character reference. Every refusal names the field
 * `file`.
 *
 * The result is a namespace-resolved element tree: `ns` is the element's
 * namespace URI, `name` its local name; attributes by local name
 * (namespace declarations are not attributes).
 */
export interface XmlElement {
  ns: string;
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (CDATA included), trimmed. */
  text: string;
}

/** The texts of the refusals that name the kind of document ('Bank statement XML is empty'). */
/** The caller's refusal codes; `encodingDeclared` gets the declared encoding as `declared`. */
export interface XmlReadMessages {
  tooLarge: string;
  encoding: string;
  encodingDeclared: string;
  empty: string;
}

/** The reader's own refusals (`errors.xml.*` in app/locales/en/errors.json and hr); `at` and `detail` are params. */
export const XML_MESSAGES = {
  doctype: 'errors.xml.doctype',
  controlCharacter: 'errors.xml.controlCharacter',
  controlCharacterAt: 'errors.xml.controlCharacterAt',
  tooDeep: 'errors.xml.tooDeep',
  malformedAt: 'errors.xml.malformedAt',
  malformed: 'errors.xml.malformed',
  oneRoot: 'errors.xml.oneRoot',
  wrongContentType: 'errors.xml.wrongContentType',
} as const;

export const MAX_XML_DEPTH = 64;

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

const refuse = (status: number, code: string, params: RefusalParams = {}) => apiError(status, code, { params, errors: { file: [{ code, params }] } });

function checkedText(text: string): string {
  if (!isMultiLineText(text)) throw refuse(400, XML_MESSAGES.controlCharacter);
  return text;
}

/**
 * The five predefined entities and character references: the only ones an XML
 * without a DOCTYPE can have. A reference to a control character (&#1;; only
 * tab, LF and CR are text) or to no character at all (a surrogate, past
 * U+10FFFF) refuses the document, naming the reference: it would slip past
 * the check of the raw text and land in the database.
 */
function decodeEntities(text: string): string {
  const decoded = text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (whole, ref: string) => {
    if (!ref.startsWith('#')) return PREDEFINED[ref] ?? whole;
    const code = ref.startsWith('#x') ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    const char = Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : null;
    if (char === null || !isMultiLineText(char)) throw refuse(400, XML_MESSAGES.controlCharacterAt, { at: whole });
    return char;
  });
  return checkedText(decoded);
}

type OrderedNode = Record<string, unknown> & { ':@'?: Record<string, string> };

function buildElement(node: OrderedNode, scope: Record<string, string>, depth: number): XmlElement | null {
  const tag = Object.keys(node).find((key) => key !== ':@');
  if (!tag || tag === '#text' || tag === '#cdata') return null;
  if (depth > MAX_XML_DEPTH) throw refuse(400, XML_MESSAGES.tooDeep, { max: MAX_XML_DEPTH });
  const namespaces = { ...scope };
  const attrs: Record<string, string> = {};
  for (const [key, value] of Object.entries(node[':@'] ?? {})) {
    const decoded = decodeEntities(String(value));
    if (key === 'xmlns') namespaces[''] = decoded;
    else if (key.startsWith('xmlns:')) namespaces[key.slice(6)] = decoded;
    else attrs[key.includes(':') ? key.slice(key.indexOf(':') + 1) : key] = decoded;
  }
  const colon = tag.indexOf(':');
  const prefix = colon === -1 ? '' : tag.slice(0, colon);
  const element: XmlElement = { ns: namespaces[prefix] ?? '', name: colon === -1 ? tag : tag.slice(colon + 1), attrs, children: [], text: '' };
  let text = '';
  const content = node[tag];
  for (const child of Array.isArray(content) ? (content as OrderedNode[]) : []) {
    if ('#text' in child) text += decodeEntities(String(child['#text']));
    else if ('#cdata' in child) {
      // CDATA is literal (no references), but may still carry raw control characters.
      for (const part of child['#cdata'] as Array<{ '#text'?: unknown }>) text += checkedText(String(part['#text'] ?? ''));
    } else {
      const built = buildElement(child, namespaces, depth + 1);
      if (built) element.children.push(built);
    }
  }
  element.text = text.trim();
  return element;
}

/** Bytes (or a string, read as UTF-8) → the root element. Throws the API refusals described above. */
export function parseXml(input: Buffer | string, options: { maxBytes: number; messages: XmlReadMessages }): XmlElement {
  const { maxBytes, messages } = options;
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  if (bytes.length > maxBytes) throw refuse(413, messages.tooLarge);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw refuse(400, messages.encoding);
  }
  if (text.trim() === '') throw refuse(400, messages.empty);
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) throw refuse(400, XML_MESSAGES.doctype);
  const declared = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([^"']+)["']/i.exec(text)?.[1];
  if (declared && !/^utf-?8$/i.test(declared)) throw refuse(400, messages.encodingDeclared, { declared });
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw refuse(400, XML_MESSAGES.malformedAt, { line: valid.err.line, column: valid.err.col, detail: valid.err.msg });
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
    // Entities are decoded by decodeEntities: only the predefined ones and character references.
    processEntities: false,
    htmlEntities: false,
  });
  let nodes: OrderedNode[];
  try {
    nodes = parser.parse(text) as OrderedNode[];
  } catch (error) {
    // e.g. 'Maximum nested tags exceeded' for a document nested thousands of levels deep.
    throw refuse(400, XML_MESSAGES.malformed, { detail: error instanceof Error ? error.message : String(error) });
  }
  const roots = nodes.map((node) => buildElement(node, {}, 0)).filter((node): node is XmlElement => node !== null);
  if (roots.length !== 1) throw refuse(400, XML_MESSAGES.oneRoot);
  return roots[0];
}

// ---------------------------------------------------------------------------
// Navigation by local name (formats with one namespace, such as ISO 20022)

/** The first descendant along `path` ('GrpHdr/MsgId'), or null. */
export function child(node: XmlElement | null | undefined, path: string): XmlElement | null {
  let current: XmlElement | null | undefined = node;
  for (const step of path.split('/')) {
    current = current?.children.find((c) => c.name === step);
    if (!current) return null;
  }
  return current ?? null;
}

/** Every child named `name` (one level). */
export function children(node: XmlElement | null | undefined, name: string): XmlElement[] {
  return node?.children.filter((c) => c.name === name) ?? [];
}

/** The text along `path`; null when absent or empty. */
export function textAt(node: XmlElement | null | undefined, path: string): string | null {
  const found = child(node, path);
  return found && found.text !== '' ? found.text : null;
}
