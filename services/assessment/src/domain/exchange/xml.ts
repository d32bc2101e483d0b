import { badRequest } from '@readiness/kit/errors';
import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** An element of a parsed document: its name without a namespace prefix, its attributes and its children. */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | { text: string };

export const isElement = (node: XmlNode): node is XmlElement => 'name' in node;

const XML_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/**
 * The five predefined entities and character references, decoded here because the parser's own entity handling is
 * off: no entity a document declares is ever expanded. A reference to anything else stays as it was written.
 */
export function decodeXmlEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]+);/g, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return XML_ENTITIES[ref] ?? whole;
  });
}

export const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Text for a CDATA section: a `]]>` inside is split across two sections. */
export const cdata = (text: string) => `<![CDATA[${text.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  // No entity expansion and no DTD: what a document declares is never read (no XXE, no billion laughs).
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  cdataPropName: '#cdata',
  removeNSPrefix: true,
});

type Parsed = Record<string, unknown>;

function toNodes(parsed: Parsed[]): XmlNode[] {
  const nodes: XmlNode[] = [];
  for (const entry of parsed) {
    const [key] = Object.keys(entry).filter((k) => k !== ':@');
    if (key === undefined) continue;
    const value = entry[key];
    if (key === '#text') nodes.push({ text: decodeXmlEntities(String(value)) });
    else if (key === '#cdata') {
      const inner = value as Parsed[];
      nodes.push({ text: inner.map((t) => String(t['#text'] ?? '')).join('') });
    } else {
      const attrs: Record<string, string> = {};
      for (const [name, v] of Object.entries((entry[':@'] as Record<string, unknown>) ?? {})) {
        attrs[name] = decodeXmlEntities(String(v));
      }
      nodes.push({ name: key, attrs, children: toNodes(value as Parsed[]) });
    }
  }
  return nodes;
}

/**
 * Parses an XML document into elements. A document type declaration is refused before anything is parsed: no
 * format read here needs one, and it is where external entities and entity bombs live.
 */
export function parseXml(xml: string, what: string): XmlElement {
  const prolog = xml.slice(0, xml.search(/<[A-Za-z_]/) >>> 0);
  if (/<!DOCTYPE|<!ENTITY/i.test(prolog) || /<!ENTITY/i.test(xml)) {
    throw badRequest(`${what}: a document type declaration (DTD) is not accepted`, 'import_dtd');
  }
  const valid = XMLValidator.validate(xml);
  if (valid !== true) {
    throw badRequest(
      `${what} is not well-formed XML (line ${valid.err.line}): ${valid.err.msg}`,
      'import_xml',
    );
  }
  let parsed: Parsed[];
  try {
    parsed = parser.parse(xml) as Parsed[];
  } catch (err) {
    // The parser's own limits (elements nested too deeply, for one) end the read with a plain error.
    throw badRequest(`${what} could not be read as XML: ${(err as Error).message}`, 'import_xml');
  }
  const root = toNodes(parsed).find(isElement);
  if (!root) throw badRequest(`${what} holds no XML element`, 'import_xml');
  return root;
}

/** The child elements of `node` named `name` (the name compared by `same`, exact by default). */
export const childrenNamed = (
  node: XmlElement | undefined,
  name: string,
  same = (a: string, b: string) => a === b,
) => (node?.children ?? []).filter((c): c is XmlElement => isElement(c) && same(c.name, name));

export const child = (node: XmlElement | undefined, name: string, same?: (a: string, b: string) => boolean) =>
  childrenNamed(node, name, same)[0];

/** Every element below `node` named `name`, in document order. */
export function descendants(node: XmlElement, test: (e: XmlElement) => boolean): XmlElement[] {
  const found: XmlElement[] = [];
  for (const c of node.children) {
    if (!isElement(c)) continue;
    if (test(c)) found.push(c);
    found.push(...descendants(c, test));
  }
  return found;
}

/** The text inside `node`, its descendants' included. */
export const textOf = (node: XmlNode | undefined): string =>
  !node ? '' : isElement(node) ? node.children.map(textOf).join('') : node.text;

/** The element and its content written back as markup (for XHTML inside an item, reduced to text afterwards). */
export function serialize(node: XmlNode): string {
  if (!isElement(node)) return escapeXml(node.text);
  const attrs = Object.entries(node.attrs)
    .map(([k, v]) => ` ${k}="${escapeXml(v)}"`)
    .join('');
  return `<${node.name}${attrs}>${node.children.map(serialize).join('')}</${node.name}>`;
}
