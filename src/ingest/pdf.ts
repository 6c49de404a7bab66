/**
 * PDF to text, page by page, with Mozilla's pdf.js (loaded by the caller,
 * see binary-parsers.ts): lines rebuilt from the positioned text items in
 * the order pdf.js gives them, words hyphenated at line ends joined, running
 * headers and footers dropped, and one section per page whose heading path
 * comes from the outline. Chunks never cross a page, so each knows its page.
 */
import type { ParsedDocument, Section } from '../document';
import { ThreadlineError, throwIfAborted } from '../errors';
import type { ParseOptions } from './parse';

/** The part of pdf.js's API used here (pdfjs-dist 4.x and 5.x), typed structurally. */
export interface PdfJs {
  getDocument(source: Record<string, unknown>): { promise: Promise<PdfDocument>; destroy(): Promise<void> };
}
interface PdfDocument {
  numPages: number;
  getPage(n: number): Promise<PdfPage>;
  getOutline(): Promise<OutlineNode[] | null>;
  getDestination(name: string): Promise<unknown[] | null>;
  getPageIndex(ref: unknown): Promise<number>;
  getMetadata(): Promise<{ info?: unknown }>;
  destroy(): Promise<void>;
}
interface PdfPage {
  getTextContent(): Promise<{ items: unknown[] }>;
  cleanup(): void;
}
interface OutlineNode { title: string; dest: string | unknown[] | null; items: OutlineNode[] }
interface TextItem { str: string; transform: number[]; width: number; height: number; hasEOL: boolean }

/** Pages are read one at a time and only their text is kept, so memory stays bounded by the text, not the file. */
export async function parsePdf(bytes: Uint8Array, pdfjs: PdfJs, name: string, options: ParseOptions = {}): Promise<ParsedDocument> {
  // A copy: pdf.js transfers the buffer it is given to its worker side.
  const task = pdfjs.getDocument({ data: bytes.slice(), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 });
  let doc: PdfDocument;
  try {
    doc = await task.promise;
  } catch (error) {
    await task.destroy().catch(() => undefined);
    throw unreadable(name, error);
  }
  try {
    const pages: string[][] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      throwIfAborted(options.signal);
      const page = await doc.getPage(n);
      pages.push(pageLines((await page.getTextContent()).items.filter(isTextItem)));
      page.cleanup();
      options.onPage?.(n, doc.numPages);
    }
    const kept = dropRunningLines(pages);
    const headings = await outlineByPage(doc).catch(() => new Map<number, string[]>());
    const title = await documentTitle(doc);
    let text = '';
    const sections: Section[] = [];
    let path: string[] = [];
    kept.forEach((lines, i) => {
      path = headings.get(i + 1) ?? path;
      const body = joinLines(lines);
      if (!body) return;
      if (text) text += '\n\n';
      sections.push({ headingPath: path, start: text.length, end: text.length + body.length, page: i + 1 });
      text += body;
    });
    if (!/\S/.test(text)) {
      throw new ThreadlineError('UNREADABLE_DOCUMENT', `"${name}" has no text layer (${doc.numPages} page${doc.numPages === 1 ? '' : 's'} of images, as a scan is): threadline reads text, it does not run OCR.`, { details: { reason: 'no-text', pages: doc.numPages } });
    }
    return { text, sections, ...(title ? { title } : {}), pages: doc.numPages };
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}

function isTextItem(item: unknown): item is TextItem {
  return typeof (item as TextItem).str === 'string' && Array.isArray((item as TextItem).transform);
}

/**
 * Lines of one page: an item on another baseline (or after an end of line)
 * starts a new line; a gap between items on one line becomes a space.
 * Lines that jump back up the page (a new column) are marked by a leading
 * "\n" so the join keeps them apart.
 */
function pageLines(items: TextItem[]): string[] {
  const lines: string[] = [];
  let line = '';
  let lastY = Number.NaN;
  let lastEnd = Number.NaN;
  let lastHeight = 0;
  let breakNext = false;
  let paragraph = false;
  for (const item of items) {
    // Blank items (pdf.js marks line ends with empty ones) carry no position worth following.
    if (!item.str.trim()) {
      if (item.str && line && !/\s$/.test(line)) line += ' ';
      breakNext ||= item.hasEOL;
      continue;
    }
    const x = item.transform[4] ?? 0;
    const y = item.transform[5] ?? 0;
    const height = item.height || Math.abs(item.transform[3] ?? 0) || 10;
    const sameLine = !breakNext && Math.abs(y - lastY) <= height * 0.5;
    if (!sameLine && line.trim()) {
      lines.push(paragraph ? `\n${line.trim()}` : line.trim());
      line = '';
    }
    if (!sameLine && !Number.isNaN(lastY)) {
      // A gap of more than about one and a half lines, a jump back up (a new column), or a change of
      // type size (a heading and its text) starts a paragraph.
      paragraph = y > lastY + height * 0.5 || lastY - y > Math.max(height, lastHeight) * 1.8 || Math.abs(height - lastHeight) > 0.2 * Math.max(height, lastHeight);
    }
    if (sameLine && line && item.str && !/\s$/.test(line) && !/^\s/.test(item.str) && x - lastEnd > height * 0.15) line += ' ';
    line += item.str;
    lastY = y;
    lastEnd = x + item.width;
    lastHeight = height;
    breakNext = item.hasEOL;
  }
  if (line.trim()) lines.push(paragraph ? `\n${line.trim()}` : line.trim());
  return lines;
}

/** Lines into paragraphs: a word hyphenated across a line end is joined ("conver-" + "sation"). */
function joinLines(lines: readonly string[]): string {
  let out = '';
  for (const raw of lines) {
    const newParagraph = raw.startsWith('\n');
    const line = raw.trim();
    if (!out) out = line;
    else if (newParagraph) out += `\n\n${line}`;
    else if (/\p{L}-$/u.test(out) && /^\p{Ll}/u.test(line)) out = out.slice(0, -1) + line;
    else out += ` ${line}`;
  }
  return out;
}

/**
 * Running headers and footers: a page's first or last line that recurs (its
 * digits aside, so "Page 3 of 9" matches "Page 4 of 9") on at least half the
 * pages, and on at least three. A page's only line is its content, never a
 * header (pages of one templated line each came out empty before this rule).
 */
function dropRunningLines(pages: readonly string[][]): string[][] {
  if (pages.length < 3) return pages.map((p) => [...p]);
  const key = (line: string | undefined) => (line ?? '').trim().replace(/\d+/g, '#');
  const counts = new Map<string, number>();
  for (const lines of pages) {
    for (const k of new Set([key(lines[0]), key(lines[lines.length - 1])])) if (k) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const running = (line: string | undefined) => (counts.get(key(line)) ?? 0) >= Math.max(3, pages.length / 2);
  return pages.map((lines) => {
    const out = [...lines];
    if (out.length > 1 && running(out[0])) out.shift();
    if (out.length > 1 && running(out[out.length - 1])) out.pop();
    return out;
  });
}

/** The heading path in force from each page on where the outline starts an entry, deepest entry last. */
async function outlineByPage(doc: PdfDocument): Promise<Map<number, string[]>> {
  const byPage = new Map<number, string[]>();
  const walk = async (nodes: readonly OutlineNode[], parents: string[]) => {
    for (const node of nodes) {
      const path = [...parents, node.title.trim()].filter(Boolean);
      const page = await destinationPage(doc, node.dest);
      if (page !== null && !byPage.has(page)) byPage.set(page, path);
      if (node.items.length) await walk(node.items, path);
    }
  };
  await walk((await doc.getOutline()) ?? [], []);
  return byPage;
}

async function destinationPage(doc: PdfDocument, dest: OutlineNode['dest']): Promise<number | null> {
  const explicit = typeof dest === 'string' ? await doc.getDestination(dest) : dest;
  const ref = explicit?.[0];
  if (ref === undefined || ref === null) return null;
  return typeof ref === 'number' ? ref + 1 : (await doc.getPageIndex(ref)) + 1;
}

async function documentTitle(doc: PdfDocument): Promise<string | undefined> {
  const info = (await doc.getMetadata().catch(() => ({ info: undefined }))).info as { Title?: unknown } | undefined;
  return typeof info?.Title === 'string' && info.Title.trim() ? info.Title.trim() : undefined;
}

function unreadable(name: string, error: unknown): ThreadlineError {
  const kind = (error as { name?: unknown } | null)?.name;
  if (kind === 'PasswordException') {
    return new ThreadlineError('UNREADABLE_DOCUMENT', `"${name}" is encrypted and needs a password; save a copy without one (Print → Save as PDF) and add that.`, { cause: error, details: { reason: 'encrypted' } });
  }
  const why = error instanceof Error ? error.message : String(error);
  return new ThreadlineError('UNREADABLE_DOCUMENT', `"${name}" is not a readable PDF (${why}); it may be damaged or truncated.`, { cause: error, details: { reason: 'malformed' } });
}
