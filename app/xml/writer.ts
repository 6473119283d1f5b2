/**
 * Writing XML: ONE escaping function for every text and attribute value
 * FinFlow puts into XML (UBL e-invoices, pain.001, XLSX parts, test
 * fixtures), and a tiny element tree whose serialisation is the only place
 * the UBL writer produces markup.
 */

// XML 1.0 allows tab, LF, CR and the characters from U+0020 on (without lone surrogates, U+FFFE, U+FFFF).
// eslint-disable-next-line no-control-regex
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A value as element text or attribute value: the five XML characters
 * escaped, and characters XML 1.0 cannot carry even escaped dropped (a
 * document with them would be refused by every reader, ours included).
 */
export function escapeXml(value: string): string {
  return value.replace(NOT_XML_CHAR, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

export interface XmlNode {
  tag: string;
  attrs: Record<string, string>;
  text: string | null;
  children: XmlNode[];
}

export type XmlContent = string | Array<XmlNode | null> | null | undefined;

/** An element; null (left out) when its content is null, undefined, '' or has no children. */
export function el(tag: string, content: XmlContent, attrs: Record<string, string> = {}): XmlNode | null {
  if (content === null || content === undefined) return null;
  if (typeof content === 'string') return content === '' ? null : { tag, attrs, text: content, children: [] };
  const children = content.filter((child): child is XmlNode => child !== null);
  return children.length ? { tag, attrs, text: null, children } : null;
}

/** The element indented by two spaces per level; every value through escapeXml. */
export function serialiseXml(node: XmlNode, depth = 0): string {
  const indent = '  '.repeat(depth);
  const attrs = Object.entries(node.attrs)
    .map(([name, value]) => ` ${name}="${escapeXml(value)}"`)
    .join('');
  if (node.text !== null) return `${indent}<${node.tag}${attrs}>${escapeXml(node.text)}</${node.tag}>`;
  const inner = node.children.map((child) => serialiseXml(child, depth + 1)).join('\n');
  return `${indent}<${node.tag}${attrs}>\n${inner}\n${indent}</${node.tag}>`;
}
