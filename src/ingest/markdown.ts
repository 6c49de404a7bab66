/**
 * Markdown to visible text: ATX and setext headings become the heading path,
 * inline syntax is dropped (links keep their text, images their alt text),
 * code blocks (fenced or indented) keep their content, front matter, link
 * definitions, closed HTML comments and script, style and template elements go.
 * Line-based, and linear in the length of a line: every pattern below either
 * is anchored or stops scanning at the next character that could start
 * another match, so a line of 10⁶ brackets, stars or spaces costs what a
 * line of letters does (a pattern that scans to the line's end from every
 * opening character once took 15 minutes for a 1 MB line of spaces, in the
 * retrieval worker, where every search waits behind it). No HTML is ever
 * produced or rendered.
 */
import { runSteps } from '../util/time-slice';
import type { ParsedDocument } from '../document';
import { headingText } from '../text/heading-text';
import { decodeEntities, imageAltText, stripTags } from './html';
import { TextBuilder, sanitizeText } from './text-builder';

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
/**
 * An ATX heading's opening; its text is the rest of the line less a closing run of #s (headingText). At most three
 * spaces before it: a tab is four columns, and a line indented that far is code ("\t# OR" in uri-js's install
 * snippet, a shell comment, had started a section named "OR").
 */
const ATX = /^ {0,3}(#{1,6})(?=\s|$)/;
/** A list item's marker. */
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])\s/;
const SETEXT = /^\s{0,3}(=+|-+)\s*$/;
/** An HTML heading as a block ("<h1 align=\"center\">Picomatch</h1>", a README's centred title): its level, and where its text starts. */
const HTML_HEADING = /^\s{0,3}<h([1-6])(?:\s[^<>]*)?>/i;
/** Lines an HTML heading may span before its closing tag; past them it is read as text. */
const HTML_HEADING_LINES = 12;
/** A line that ends inside an HTML tag (`<img src="…"` with its `alt` on the next line): the tag goes on below. */
const OPEN_TAG = /<[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?$/;
/** Lines an HTML tag may span; past them (or at a blank line) its lines are read as they are. */
const TAG_LINES = 12;
const LINK_DEF = /^\s{0,3}\[[^\]]+\]:\s*\S+/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;
/** A table's header rule; it must contain a pipe, or `---` would read as one. */
const isTableRule = (line: string) => line.includes('|') && TABLE_RULE.test(line);
const HR = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;

/** A link's or image's target (with any title): at most one level of parentheses inside ("…/Foo_(bar)"), so a scan ends at the next unmatched one. */
const TARGET = String.raw`\((?:[^()]|\([^()]*\))*\)`;
/** Link text: no brackets inside, so a scan ends at the next one. */
const LABEL = String.raw`\[([^\][]*)\]`;
/** A link's label and its target, inline or by reference ("[text](url)", "[text][ref]"); with "!" before it, an image. */
const LINKED = String.raw`${LABEL}(?:${TARGET}|\[[^\][]*\])`;
const IMAGE_OR_LINK = new RegExp(`!?${LINKED}`, 'g');
const IMAGE = new RegExp(`!${LINKED}`, 'g');

/**
 * A heading's title: its text, without its images ("# p-queue [![Build Status](…)](…)" is "p-queue": badges are
 * decoration, and their alt text in every section's heading path only adds noise to the index and to citations).
 * A heading of images only (a logo) is named by their alt text, as a screen reader reads it.
 */
function headingTitle(inline: string): string {
  return stripInline(inline, true).replace(/\s+/g, ' ').trim() || stripInline(inline).trim() || imageAltText(inline);
}
/**
 * Strong and strike-through spans ("**a**", "__a__", "~~a~~") lose their
 * markers: an opening marker followed by a non-space pairs with the next
 * same marker preceded by one. Found with indexOf, each marker kind's search
 * only moving forward: an opening with no closing after it means none of the
 * later ones has one either (a regex's lazy ".+?" searched the rest of the
 * line again from every opening).
 */
function stripStrong(line: string): string {
  if (!/\*\*|__|~~/.test(line)) return line;
  const drop = new Set<number>();
  const exhausted = new Set<string>();
  for (let i = 0; i < line.length - 1;) {
    const mark = line.slice(i, i + 2);
    const isMark = mark === '**' || mark === '__' || mark === '~~';
    if (!isMark || escaped(line, i) || exhausted.has(mark) || !/\S/.test(line.charAt(i + 2))) { i += isMark ? 2 : 1; continue; }
    let close = line.indexOf(mark, i + 3);
    while (close >= 0 && (/\s/.test(line.charAt(close - 1)) || escaped(line, close))) close = line.indexOf(mark, close + 1);
    if (close < 0) { exhausted.add(mark); i += 2; continue; }
    drop.add(i); drop.add(i + 1); drop.add(close); drop.add(close + 1);
    i = close + 2;
  }
  return without(line, drop);
}

/**
 * Emphasis ("*a*", "_a_"): an opening * or _ after a non-word character (or
 * the line's start) and before a non-space pairs with the nearest closing one
 * after a non-space and before a non-word character; markers inside words
 * ("snake_case", "2*3") and unpaired ones stay. One pass over the closing
 * candidates, as in stripStrong.
 */
function stripEmphasis(line: string): string {
  if (!/[*_]/.test(line)) return line;
  const isMark = (at: number) => (line[at] === '*' || line[at] === '_') && !escaped(line, at);
  const closings: number[] = [];
  for (let j = 1; j < line.length; j++) if (isMark(j) && /\S/.test(line.charAt(j - 1)) && !/[\w*]/.test(line.charAt(j + 1))) closings.push(j);
  const drop = new Set<number>();
  let next = 0;
  for (let i = 0; i < line.length && next < closings.length; i++) {
    if (!isMark(i) || (i > 0 && /[\w*]/.test(line.charAt(i - 1))) || !/\S/.test(line.charAt(i + 1))) continue;
    while (next < closings.length && (closings[next] as number) < i + 2) next++;
    const close = closings[next];
    if (close === undefined) break;
    drop.add(i); drop.add(close);
    i = close;
    next++;
  }
  return without(line, drop);
}

/** Whether the character at `at` is escaped ("\\*": a literal star, which the escape step then unescapes). */
function escaped(text: string, at: number): boolean {
  let slashes = 0;
  while (at - slashes - 1 >= 0 && text[at - slashes - 1] === '\\') slashes++;
  return slashes % 2 === 1;
}

/** `text` without the characters at `drop`. */
function without(text: string, drop: ReadonlySet<number>): string {
  if (drop.size === 0) return text;
  let out = '';
  let from = 0;
  for (const at of [...drop].sort((a, b) => a - b)) { out += text.slice(from, at); from = at + 1; }
  return out + text.slice(from);
}

/**
 * Inline Markdown to plain text; with `dropImages`, images leave nothing (not even their alt text).
 * Code spans keep their text as written, as in CommonMark: "ReadableStreamLike<ArrayLike<number>>" holds no
 * tag, "a &lt; b" no entity, "\\*" no escape. Each is set aside behind a placeholder made of control
 * characters (which parseMarkdown's sanitizeText turned into spaces and decodeEntities never makes, so no
 * line holds one) and put back last.
 */
function stripInline(line: string, dropImages = false): string {
  const spans: string[] = [];
  const masked = line.replace(/`+([^`]*)`+/g, (_, code: string) => `\u0001${spans.push(code) - 1}\u0002`);
  // Twice: a badge is an image inside a link ("[![build](badge.svg)](ci)"), and a label holds no brackets.
  // Autolinks before tags: "<https://x.test>" would read as a tag.
  const tagless = stripTags(masked.replace(/<((?:https?|mailto):[^<>\s]+)>/g, '$1'));
  const linked = (dropImages ? tagless.replace(IMAGE, ' ') : tagless).replace(IMAGE_OR_LINK, '$1').replace(IMAGE_OR_LINK, '$1');
  // An entity reference is the character it names ("Array&lt;Pathname&gt;" is "Array<Pathname>").
  const read = stripEmphasis(stripStrong(decodeEntities(linked))).replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1');
  // eslint-disable-next-line no-control-regex
  return read.replace(/\u0001(\d+)\u0002/g, (_, i: string) => spans[Number(i)] ?? '');
}

function stripBlockMarkers(line: string): string {
  const unmarked = line
    .replace(/^\s{0,3}(?:>\s?)+/, '')
    .replace(/^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/, '');
  if (!unmarked.includes('|')) return unmarked;
  // A table row: cells joined by " · ", without the outer pipes (split, not /\s*\|\s*/g, which rescans a run of spaces from each of its positions).
  const cells = unmarked.trim().split('|').map((cell) => cell.trim());
  if (cells[0] === '') cells.shift();
  if (cells.length > 0 && cells.at(-1) === '') cells.pop();
  return cells.join(' · ');
}

export function parseMarkdown(raw: string): ParsedDocument {
  return runSteps(markdownSteps(raw));
}

/** parseMarkdown as steps: it pauses after each line (time-slice.ts). */
export function* markdownSteps(raw: string): Generator<void, ParsedDocument> {
  const lines = withoutHidden(sanitizeText(raw).split('\n'));
  const out = new TextBuilder();
  let i = 0;
  if (lines[0]?.trim() === '---') {
    const end = lines.findIndex((l, j) => j > 0 && /^(---|\.\.\.)\s*$/.test(l));
    if (end > 0) i = end + 1;
  }
  const code = new CodeLines();
  for (; i < lines.length; i++) {
    yield;
    const line = lines[i] ?? '';
    const read = code.read(line);
    if (read.ended) out.block();
    if (read.kind === 'fenced') { out.inline(line); out.line(); continue; }
    if (read.kind === 'fence') { out.block(); continue; }
    if (read.kind === 'indented-start') out.block();
    if (read.kind === 'indented-start' || read.kind === 'indented') { out.inline(line.trim() === '' ? '' : dropColumns(line, 4)); out.line(); continue; }
    const atx = ATX.exec(line);
    if (atx) { out.heading(atx[1]?.length ?? 1, headingTitle(headingText(line.slice(atx[0].length)))); continue; }
    const html = HTML_HEADING.exec(line);
    if (html) {
      const level = Number(html[1]);
      const close = new RegExp(`</h${level}\\s*>`, 'i');
      const last = lines.slice(i, i + HTML_HEADING_LINES).findIndex((l, j) => close.test(j === 0 ? l.slice(html[0].length) : l));
      if (last >= 0) {
        const spanned = lines.slice(i, i + last + 1).join(' ').slice(html[0].length);
        const end = close.exec(spanned) as RegExpExecArray;
        // A heading of images only (a logo) is named by their alt text, as a screen reader reads it; with none, it names
        // nothing and no section starts. Text after the closing tag is body text.
        const inner = spanned.slice(0, end.index);
        const title = headingTitle(inner);
        if (title) out.heading(level, title);
        const tail = stripInline(spanned.slice(end.index + end[0].length));
        if (tail.trim()) { out.inline(tail); out.line(); }
        i += last;
        continue;
      }
    }
    const next = lines[i + 1] ?? '';
    if (line.trim() && SETEXT.test(next) && !HR.test(line) && !isTableRule(next) && !/^\s*[-*+]\s/.test(line)) {
      out.heading(next.trim().startsWith('=') ? 1 : 2, headingTitle(line));
      i++;
      continue;
    }
    if (line.trim() === '' || HR.test(line)) { out.block(); continue; }
    if (LINK_DEF.test(line) || isTableRule(line)) continue;
    // A tag whose attributes go on over lines (a badge's `<img src="…"` then `alt="…">`) is read as one line.
    const end = OPEN_TAG.test(line) ? tagEnd(lines, i) : -1;
    out.inline(stripInline(stripBlockMarkers(end > i ? lines.slice(i, end + 1).join(' ') : line)));
    if (end > i) i = end;
    out.line();
  }
  return out.finish();
}

/** What a page never shows: an HTML comment, and the content of a script, style or template element. */
const HIDDEN = [
  { open: '<!--', close: '-->' },
  { open: '<script', close: '</script' },
  { open: '<style', close: '</style' },
  { open: '<template', close: '</template' },
] as const;
/** Where any of them opens (an element's name ends at a space, ">" or "/"). */
const HIDDEN_OPEN = /<!--|<(?:script|style|template)(?=[\s>/]|$)/g;
/** Whether a line holds any of them (HIDDEN_OPEN without the state a global pattern keeps). */
const ANY_HIDDEN_OPEN = new RegExp(HIDDEN_OPEN.source);

/**
 * The lines without what a page never shows: HTML comments ("<!-- TODO: … -->", a section commented out over
 * several lines) and script, style and template elements (a VitePress page's `<script setup>` block). None of it
 * is passage text, and a heading inside starts no section ("<!--\n# Old API\n…\n-->" had become a section named
 * "Old API", its hidden text quoted in answers). Only what closes: one opened at a line's start (an HTML block)
 * by a later close anywhere, one opened inside a line before its paragraph ends; an unclosed "<!--" is text
 * ("Escape <!-- in output"), so a stray one never hides the rest of a page. Not inside fenced code, which shows
 * what it holds, nor in an indented code block or a code span ("`<!-- toc -->`"). A line wholly hidden becomes blank. Linear in the
 * text: each line is scanned forward once, and where each kind's next close and the next blank line are is
 * known for every line beforehand.
 */
function withoutHidden(lines: readonly string[]): string[] {
  // Only a line with a "<" can open or close anything but a comment, whose "-->" has no case.
  const lower = lines.map((line) => (line.includes('<') ? line.toLowerCase() : line));
  // Per kind, the first line at or after each line that holds its close; the first blank line (lines.length where none).
  const nextClose = HIDDEN.map(() => new Array<number>(lines.length + 1).fill(lines.length));
  const nextBlank = new Array<number>(lines.length + 1).fill(lines.length);
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lower[i] ?? '';
    HIDDEN.forEach((kind, k) => { (nextClose[k] as number[])[i] = line.includes(kind.close) ? i : ((nextClose[k] as number[])[i + 1] ?? lines.length); });
    nextBlank[i] = line.trim() === '' ? i : (nextBlank[i + 1] ?? lines.length);
  }
  const out: string[] = [];
  let hidden: number | null = null;
  // Code as markdownSteps reads it (the same reader, the same order), so both passes agree on which lines are code.
  const code = new CodeLines();
  lines.forEach((line, i) => {
    const low = lower[i] ?? '';
    if (hidden === null && (code.read(line).kind !== 'text' || !ANY_HIDDEN_OPEN.test(low))) { out.push(line); return; }
    const lastClose = HIDDEN.map((kind) => low.lastIndexOf(kind.close));
    let kept = '';
    let at = 0;
    let ticks = 0;
    while (at < line.length) {
      if (hidden !== null) {
        const kind = HIDDEN[hidden] as (typeof HIDDEN)[number];
        const end = low.indexOf(kind.close, at);
        if (end < 0) { at = line.length; break; }
        // A closing tag ends at its ">"; a comment's close is "-->" itself.
        const gt = kind.open === '<!--' ? end + kind.close.length - 1 : low.indexOf('>', end);
        at = gt < 0 ? line.length : gt + 1;
        hidden = null;
        continue;
      }
      HIDDEN_OPEN.lastIndex = at;
      const open = HIDDEN_OPEN.exec(low);
      const start = open ? open.index : line.length;
      for (let j = at; j < start; j++) if (line.charCodeAt(j) === 96) ticks++;
      if (!open) { kept += line.slice(at); break; }
      const k = HIDDEN.findIndex((kind) => open[0] === kind.open);
      const later = (nextClose[k] as number[])[i + 1] ?? lines.length;
      const block = line.slice(0, start).trim() === '';
      const closes = (lastClose[k] ?? -1) >= start + open[0].length || (later < lines.length && (block || later < (nextBlank[i + 1] ?? lines.length)));
      // Inside a code span (an odd number of backticks before it), or never closed, it is text.
      if (ticks % 2 === 1 || !closes) { kept += line.slice(at, start + 1); at = start + 1; continue; }
      kept += line.slice(at, start);
      at = start + open[0].length;
      hidden = k;
    }
    out.push(kept);
  });
  return out;
}

/**
 * Which lines are code, read line by line: fenced code first, then indented code (an indented "```" stays a line
 * of its block). `ended` says an indented block ended on this line, whatever the line is.
 */
class CodeLines {
  private fence: string | null = null;
  private readonly indented = new IndentedCode();

  read(line: string): { kind: 'fence' | 'fenced' | 'indented-start' | 'indented' | 'text'; ended: boolean } {
    const match = FENCE.exec(line);
    if (this.fence !== null) {
      if (match && match[1]?.startsWith(this.fence)) { this.fence = null; return { kind: 'fence', ended: false }; }
      return { kind: 'fenced', ended: false };
    }
    const indented = this.indented.read(line);
    if (indented === 'start') return { kind: 'indented-start', ended: false };
    if (indented === 'code') return { kind: 'indented', ended: false };
    const ended = indented === 'end';
    if (match) { this.fence = match[1] ?? '```'; return { kind: 'fence', ended }; }
    return { kind: 'text', ended };
  }
}

/**
 * CommonMark's indented code blocks, read line by line outside fenced code: after a blank line, lines indented four
 * columns or more are code, kept as written (no heading, tag, comment or emphasis read in them), until a line
 * indented less. Not inside a list, where such lines continue an item; a list lasts until a line that is neither
 * blank, indented nor an item.
 */
class IndentedCode {
  private code = false;
  private list = false;
  private afterBlank = true;

  /** 'start' for a block's first line, 'code' for its others (blank ones included), 'end' for the first line after one, 'text' otherwise. */
  read(line: string): 'start' | 'code' | 'end' | 'text' {
    const blank = line.trim() === '';
    const indent = blank ? 0 : indentColumns(line);
    if (this.code && (blank || indent >= 4)) return 'code';
    const ended = this.code;
    this.code = false;
    if (!blank && indent >= 4 && this.afterBlank && !this.list) { this.code = true; return 'start'; }
    if (!blank) this.list = LIST_ITEM.test(line) || (this.list && indent >= 2) || (this.list && !this.afterBlank);
    this.afterBlank = blank;
    return ended ? 'end' : 'text';
  }
}

/** The columns of a line's leading whitespace, a tab reaching the next multiple of four. */
function indentColumns(line: string): number {
  let columns = 0;
  for (const c of line) {
    if (c === ' ') columns++;
    else if (c === '\t') columns += 4 - (columns % 4);
    else break;
  }
  return columns;
}

/** `line` less `count` columns of leading whitespace (a tab that reaches past them leaves its remainder as spaces). */
function dropColumns(line: string, count: number): string {
  let columns = 0;
  let at = 0;
  while (at < line.length && columns < count) {
    const c = line.charAt(at);
    if (c === ' ') columns++;
    else if (c === '\t') columns += 4 - (columns % 4);
    else break;
    at++;
  }
  return ' '.repeat(Math.max(0, columns - count)) + line.slice(at);
}

/**
 * The line that closes a tag left open at the end of line `at`: the first later line with a ">" before any
 * "<", within TAG_LINES and before a blank line, a fence or a heading; -1 if none (the lines are then read as they are).
 */
function tagEnd(lines: readonly string[], at: number): number {
  for (let j = at + 1; j < lines.length && j <= at + TAG_LINES; j++) {
    const l = lines[j] ?? '';
    // A blank line, a fence or a heading starts another block: the tag was never one.
    if (!l.trim() || FENCE.test(l) || ATX.test(l)) return -1;
    const gt = l.indexOf('>');
    const lt = l.indexOf('<');
    if (gt >= 0 && (lt < 0 || gt < lt)) return j;
    if (lt >= 0) return -1;
  }
  return -1;
}
