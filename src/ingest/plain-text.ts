/** Plain text: lines and paragraphs kept, whitespace normalized, one section. */
import type { ParsedDocument } from '../document';
import { runSteps } from '../util/time-slice';
import { TextBuilder, sanitizeText } from './text-builder';

export function parsePlainText(raw: string): ParsedDocument {
  return runSteps(plainTextSteps(raw));
}

/** parsePlainText as steps: it pauses after each line (time-slice.ts). */
export function* plainTextSteps(raw: string): Generator<void, ParsedDocument> {
  const out = new TextBuilder();
  for (const line of sanitizeText(raw).split('\n')) {
    if (line.trim() === '') out.block();
    else { out.inline(line); out.line(); }
    yield;
  }
  return out.finish();
}
