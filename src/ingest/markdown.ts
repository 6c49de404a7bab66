/**
 * Markdown to visible text: ATX and setext headings become the heading path,
 * inline syntax is dropped (links keep their text, images their alt text),
 * code blocks keep their content, front matter and link definitions go.
 * Line-based and linear; no HTML is ever produced or rendered.
 */
import type { ParsedDocument } from '../document';
import { stripTags } from './html';
import { TextBuilder, sanitizeText } from './text-builder';

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const ATX = /^\s{0,3}(#{1,6})(?:\s+(.*?))?\s*#*\s*$/;
const SETEXT = /^\s{0,3}(=+|-+)\s*$/;
const LINK_DEF = /^\s{0,3}\[[^\]]+\]:\s*\S+/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;
/** A table's header rule; it must contain a pipe, or `---` would read as one. */
const isTableRule = (line: string) => line.includes('|') && TABLE_RULE.test(line);
const HR = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;

/** Inline Markdown to plain text. */
export function stripInline(line: string): string {
  return stripTags(line)
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/<((?:https?|mailto):[^>\s]+)>/g, '$1')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/(\*\*|__|~~)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/(^|[^\w*])[*_](?=\S)(.+?)(?<=\S)[*_](?![\w*])/g, '$1$2')
    .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1');
}

function stripBlockMarkers(line: string): string {
  return line
    .replace(/^\s{0,3}(?:>\s?)+/, '')
    .replace(/^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/, '')
    .replace(/^\s*\|/, '').replace(/\|\s*$/, '').replace(/\s*\|\s*/g, ' · ');
}

export function parseMarkdown(raw: string): ParsedDocument {
  const lines = sanitizeText(raw).split('\n');
  const out = new TextBuilder();
  let i = 0;
  if (lines[0]?.trim() === '---') {
    const end = lines.findIndex((l, j) => j > 0 && /^(---|\.\.\.)\s*$/.test(l));
    if (end > 0) i = end + 1;
  }
  let fence: string | null = null;
  for (; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fenceMatch = FENCE.exec(line);
    if (fence !== null) {
      if (fenceMatch && fenceMatch[1]?.startsWith(fence)) { fence = null; out.block(); } else { out.inline(line); out.line(); }
      continue;
    }
    if (fenceMatch) { fence = fenceMatch[1] ?? '```'; out.block(); continue; }
    const atx = ATX.exec(line);
    if (atx) { out.heading(atx[1]?.length ?? 1, stripInline(atx[2] ?? '')); continue; }
    const next = lines[i + 1] ?? '';
    if (line.trim() && SETEXT.test(next) && !HR.test(line) && !isTableRule(next) && !/^\s*[-*+]\s/.test(line)) {
      out.heading(next.trim().startsWith('=') ? 1 : 2, stripInline(line));
      i++;
      continue;
    }
    if (line.trim() === '' || HR.test(line)) { out.block(); continue; }
    if (LINK_DEF.test(line) || isTableRule(line)) continue;
    out.inline(stripInline(stripBlockMarkers(line)));
    out.line();
  }
  return out.finish();
}
