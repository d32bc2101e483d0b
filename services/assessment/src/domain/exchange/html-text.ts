/** The named HTML entities question banks write most; any other named one is left as written. */
const HTML_ENTITIES: Record<string, string> = {
  nbsp: ' ',
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  ndash: '–',
  mdash: '—',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  copy: '©',
  eacute: 'é',
  egrave: 'è',
  aacute: 'á',
  agrave: 'à',
  iacute: 'í',
  oacute: 'ó',
  uacute: 'ú',
  ntilde: 'ñ',
  ccedil: 'ç',
  uuml: 'ü',
  ouml: 'ö',
  auml: 'ä',
};

const decodeHtmlEntities = (text: string) =>
  text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,8});/g, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return HTML_ENTITIES[ref] ?? whole;
  });

const BLOCK = /^(p|div|br|li|ul|ol|h[1-6]|tr|table|blockquote|pre|section|article|dd|dt)$/i;

/** A source of an embedded image or a linked file that an item refers to. */
export interface HtmlReference {
  kind: 'img' | 'a';
  src: string;
}

/**
 * HTML reduced to the text the product shows: no scripts, styles or other markup, entities decoded, paragraphs and
 * line breaks kept as line breaks, runs of white space as one space, control characters dropped. The images and
 * links it referred to are given back, for the caller to keep as a file or to list as left out.
 */
export function htmlToText(html: string): { text: string; references: HtmlReference[] } {
  const references: HtmlReference[] = [];
  // Every pattern here runs in time linear in the text: a hidden element or comment left open runs to the end (as a
  // browser reads it), and a tag ends at the next `<` at the latest, so no run of unclosed tags can make it slow.
  const withoutHidden = html
    .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
    .replace(/<(script|style|template|object|iframe|noscript)\b[\s\S]*?(?:<\/\1\s*>|$)/gi, '');
  const marked = withoutHidden.replace(
    /<\/?([a-zA-Z][a-zA-Z0-9-]*)\b([^<>]*)>/g,
    (_tag, name: string, attrs: string) => {
      const lower = name.toLowerCase();
      if (lower === 'img' || lower === 'a') {
        const src = /\b(?:src|href)\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attrs);
        const value = src?.[2] ?? src?.[3] ?? src?.[4];
        if (value) references.push({ kind: lower, src: decodeHtmlEntities(value) });
      }
      return BLOCK.test(lower) ? '\n' : '';
    },
  );
  const text = decodeHtmlEntities(marked.replace(/<[a-zA-Z/!?][^<>]*>?/g, ''))
    // eslint-disable-next-line no-control-regex -- control characters are never part of a question's text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, '')
    .split(/\r?\n/)
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { text, references };
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Plain text as HTML paragraphs: a blank line between paragraphs, a line break within one. */
export const textToHtml = (text: string) =>
  text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
