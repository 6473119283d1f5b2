import { parseXml, type XmlElement } from '../xml/reader.server.ts';
import { CAC_NS, CBC_NS, MAX_UBL_BYTES, UBL_MESSAGES } from './ubl-constants.ts';

export type { XmlElement };

/**
 * A UBL document through the one safe XML reader (app/xml/reader.server.ts:
 * no DOCTYPE, hence no external entities and no entity expansion; 5 MB;
 * UTF-8; control characters refused) and the navigation the reader and the
 * rules use: steps are 'cac:Name' or 'cbc:Name' in the UBL namespaces.
 */
export function parseUblXml(input: Buffer | string): XmlElement {
  return parseXml(input, { maxBytes: MAX_UBL_BYTES, messages: UBL_MESSAGES });
}

const PREFIXES: Record<string, string> = { cac: CAC_NS, cbc: CBC_NS };

function matches(element: XmlElement, step: string): boolean {
  const [prefix, name] = step.split(':');
  return element.ns === PREFIXES[prefix] && element.name === name;
}

export function all(element: XmlElement | undefined, ...steps: string[]): XmlElement[] {
  let current: XmlElement[] = element ? [element] : [];
  for (const step of steps) current = current.flatMap((node) => node.children.filter((child) => matches(child, step)));
  return current;
}

export function first(element: XmlElement | undefined, ...steps: string[]): XmlElement | undefined {
  return all(element, ...steps)[0];
}

export function textOf(element: XmlElement | undefined, ...steps: string[]): string | null {
  const found = steps.length ? first(element, ...steps) : element;
  return found && found.text !== '' ? found.text : null;
}
