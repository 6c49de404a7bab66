/**
 * HTML to visible text without a DOM (it runs in workers and Node): a linear
 * tag scanner that skips script, style, template, head and hidden elements,
 * breaks lines at block elements, turns h1–h6 into the heading path and
 * decodes entities. Nothing here is ever rendered.
 */
import { runSteps } from '../util/time-slice';
import type { ParsedDocument } from '../document';
import { TextBuilder, controlsAsSpaces, sanitizeText } from './text-builder';

const SKIP = new Set(['script', 'style', 'template', 'noscript', 'svg', 'math', 'iframe', 'object', 'canvas', 'select', 'textarea', 'button']);
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'dd', 'details', 'dialog', 'div', 'dl', 'dt', 'fieldset', 'figcaption',
  'figure', 'footer', 'form', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody',
  'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'caption', 'html',
]);
const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ndash: '–', mdash: '—', hellip: '…', copy: '©', reg: '®',
  trade: '™', laquo: '«', raquo: '»', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', middot: '·', bull: '•', euro: '€',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      // A control character (tab and line breaks aside) is no text, named or written (sanitizeText).
      return code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? controlsAsSpaces(String.fromCodePoint(code)) : '\uFFFD';
    }
    return NAMED[body.toLowerCase()] ?? whole;
  });
}

/**
 * Removes tags and comments from a fragment (used for inline HTML in Markdown).
 * A tag ends at the next "<" as well as at ">": a scan never runs past the
 * start of the next candidate, so the cost stays linear; an unclosed comment
 * is left as text (Markdown is read a line at a time).
 */
export function stripTags(text: string): string {
  if (text.indexOf('<') < 0) return text;
  return withoutComments(text).replace(/<\/?[a-z][^<>]*>/gi, '');
}

/** `text` without its closed comments; from an opening with no "-->" after it on, nothing is a comment (and nothing is searched again). */
function withoutComments(text: string): string {
  let out = '';
  let from = 0;
  for (let open = text.indexOf('<!--'); open >= 0; open = text.indexOf('<!--', from)) {
    const close = text.indexOf('-->', open + 4);
    if (close < 0) break;
    out += text.slice(from, open);
    from = close + 3;
  }
  return out + text.slice(from);
}

/**
 * One tag, comment, CDATA section, declaration or processing instruction. An
 * attribute's quoted value may hold ">" but not "<": every scan stops at the
 * next "<", where the next match would start, so "<a <a <a …" (or an unclosed
 * quote) costs linear time, not the rest of the document from each "<".
 */
const TAG = /<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<![^<>]*>|<\?[^<>]*>|<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^<>"']|"[^<"]*"|'[^<']*')*)>/g;

function isHidden(attrs: string): boolean {
  return /(?:^|\s)hidden(?:\s|=|$)/i.test(attrs) || /aria-hidden\s*=\s*["']?true/i.test(attrs)
    || /style\s*=\s*["'][^"']*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i.test(attrs);
}

/**
 * The alt text of the `<img>` tags in `html`, joined: what a screen reader
 * reads for a heading made only of images (a README's logo, `<h1><img
 * alt="keyv"></h1>`), and so what such a heading says. Read with the same
 * tag scanner as parseHtml (TAG), so an image inside a comment is none.
 */
export function imageAltText(html: string): string {
  const alts: string[] = [];
  for (const m of html.matchAll(TAG)) {
    const alt = m[2]?.toLowerCase() === 'img' && m[1] !== '/' ? altOf(m[3] ?? '') : '';
    if (alt) alts.push(alt);
  }
  return alts.join(' ');
}

/** The decoded, space-collapsed `alt` attribute of a tag's attributes, or ''. */
function altOf(attrs: string): string {
  const m = /(?:^|\s)alt\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i.exec(attrs);
  return m ? decodeEntities(m[1] ?? m[2] ?? m[3] ?? '').replace(/\s+/g, ' ').trim() : '';
}

export function parseHtml(raw: string): ParsedDocument {
  return runSteps(htmlSteps(raw));
}

/** parseHtml as steps: it pauses after each tag (time-slice.ts). */
export function* htmlSteps(raw: string): Generator<void, ParsedDocument> {
  const html = sanitizeText(raw);
  const out = new TextBuilder();
  let skipTag: string | null = null;
  let skipDepth = 0;
  // `alt`: the alt text of the heading's images, its name when it has no text of its own (a logo).
  let heading: { level: number; text: string; alt: string } | null = null;
  let title: string | null = null;
  let pos = 0;
  const text = (chunk: string) => {
    if (skipTag !== null || !chunk) return;
    const decoded = decodeEntities(chunk);
    if (title !== null) title += decoded;
    else if (heading) heading.text += decoded;
    else out.inline(decoded);
  };
  for (const m of html.matchAll(TAG)) {
    yield;
    text(html.slice(pos, m.index));
    pos = m.index + m[0].length;
    const name = m[2]?.toLowerCase();
    if (!name) continue;
    const closing = m[1] === '/';
    const selfClosing = VOID.has(name) || /\/\s*$/.test(m[3] ?? '');
    if (skipTag !== null) {
      if (name === skipTag && !selfClosing) skipDepth += closing ? -1 : 1;
      if (skipDepth === 0) skipTag = null;
      continue;
    }
    if (name === 'title' && !closing) { title = ''; continue; }
    if (name === 'title' && closing) { if (title !== null && out.title === undefined) out.title = title.replace(/\s+/g, ' ').trim() || undefined; title = null; continue; }
    if (!closing && !selfClosing && (SKIP.has(name) || isHidden(m[3] ?? ''))) { skipTag = name; skipDepth = 1; continue; }
    const level = /^h([1-6])$/.exec(name);
    if (level) {
      if (!closing) heading = { level: Number(level[1]), text: '', alt: '' };
      else if (heading) { out.heading(heading.level, headingName(heading)); heading = null; }
      continue;
    }
    if (name === 'img' && heading && !closing) heading.alt = `${heading.alt} ${altOf(m[3] ?? '')}`.trim();
    if (name === 'br') out.line();
    else if (BLOCK.has(name)) out.block();
  }
  text(html.slice(pos));
  if (heading) out.heading(heading.level, headingName(heading));
  return out.finish();
}

/** A heading's text, or where it has none (images only), its images' alt text. */
function headingName(heading: { text: string; alt: string }): string {
  return heading.text.trim() ? heading.text : heading.alt;
}
