/**
 * Accumulates normalized text and heading sections for the parsers, so that
 * offsets, whitespace and section bookkeeping live in one place.
 */
import type { ParsedDocument, Section } from '../document';

export class TextBuilder {
  private readonly parts: string[] = [];
  private length = 0;
  private lastChar = '';
  private pendingSpace = false;
  private pendingBreak = 0;
  private readonly sections: Section[] = [];
  /** The open headings, outermost first, each with its level: a heading closes every open one at its level or below. */
  private open: { level: number; title: string }[] = [];
  private sectionStart = -1;
  title: string | undefined;

  /**
   * Appends inline text. Whitespace is never written eagerly: it becomes a
   * pending space or break that materializes only before the next content, so
   * the output has no trailing or doubled whitespace and building stays O(n).
   */
  inline(text: string): void {
    const clean = text.replace(/\s+/g, ' ');
    if (clean.startsWith(' ')) this.pendingSpace = true;
    const body = clean.trim();
    if (body) {
      if (this.length > 0 && this.pendingBreak > 0) this.push('\n'.repeat(this.pendingBreak));
      else if (this.length > 0 && this.pendingSpace && this.lastChar !== '\n') this.push(' ');
      this.pendingBreak = 0;
      this.pendingSpace = false;
      if (this.sectionStart < 0) this.sectionStart = this.length;
      this.push(body);
    }
    if (clean.endsWith(' ') && clean.length > 0) this.pendingSpace = true;
  }

  /** Ends the current block: the next content starts after a blank line. */
  block(): void {
    this.pendingBreak = 2;
  }

  /** Ends the current line. */
  line(): void {
    this.pendingBreak = Math.max(this.pendingBreak, 1);
  }

  /** Starts a new section under a heading of `level` (1–6). */
  heading(level: number, text: string): void {
    const title = text.replace(/\s+/g, ' ').trim();
    this.block();
    this.closeSection();
    // By level, not by position: a README that opens with "## Features" (no H1) has "## Usage" beside it, not under
    // it, and "### a" then "## b" leaves no "### a" open under "b".
    this.open = [...this.open.filter((h) => h.level < level), ...(title ? [{ level, title }] : [])];
    if (level === 1 && title && this.title === undefined) this.title = title;
  }

  finish(): ParsedDocument {
    this.closeSection();
    const text = this.parts.join('');
    return this.title === undefined ? { text, sections: this.sections } : { text, sections: this.sections, title: this.title };
  }

  private closeSection(): void {
    if (this.sectionStart >= 0 && this.length > this.sectionStart) {
      this.sections.push({ headingPath: this.open.map((h) => h.title), start: this.sectionStart, end: this.length });
    }
    this.sectionStart = -1;
  }

  private push(s: string): void {
    this.parts.push(s);
    this.length += s.length;
    this.lastChar = s[s.length - 1] ?? this.lastChar;
  }
}

/** Control characters but tab and line breaks: no text, each read as a space. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/** `text` with each control character (tab and line breaks aside) a space: as written, or as an entity names it (decodeEntities). */
export function controlsAsSpaces(text: string): string {
  return text.replace(CONTROL, ' ');
}

/** Replaces lone surrogates and control characters (except tab/newline), normalizes line ends. */
export function sanitizeText(raw: string): string {
  const wellFormed = typeof raw.toWellFormed === 'function' ? raw.toWellFormed() : raw.replace(/[\uD800-\uDFFF]/g, '\uFFFD');
  return controlsAsSpaces(wellFormed.replace(/\r\n?/g, '\n'));
}
