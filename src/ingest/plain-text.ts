/** Plain text: lines and paragraphs kept, whitespace normalized, one section. */
import type { ParsedDocument } from '../document';
import { TextBuilder, sanitizeText } from './text-builder';

export function parsePlainText(raw: string): ParsedDocument {
  const out = new TextBuilder();
  for (const line of sanitizeText(raw).split('\n')) {
    if (line.trim() === '') out.block();
    else { out.inline(line); out.line(); }
  }
  return out.finish();
}
