/**
 * Splits a parsed document into chunks of at most `maxTokens` tokens of the
 * embedding model's own tokenizer, packing whole sentences, never crossing a
 * heading, and overlapping consecutive chunks by up to `overlapTokens` of
 * whole sentences. Each chunk keeps its heading path and [start, end) offsets
 * into the parsed text, for citations.
 */
import type { ParsedDocument, Section } from '../document';
import { ThreadlineError } from '../errors';
import { runSteps, runStepsSliced, type TimeSlice } from '../util/time-slice';

export interface ChunkOptions {
  /** Largest chunk, in embedding-model tokens, context header included. @default 256 */
  maxTokens?: number;
  /** Sentences carried over from the previous chunk, up to this many tokens. @default 32 */
  overlapTokens?: number;
}

export const CHUNK_DEFAULTS = Object.freeze({ maxTokens: 256, overlapTokens: 32 } satisfies Required<ChunkOptions>);

/**
 * What is wrong with chunking options (INVALID_INPUT naming the option), or null. createThreadline() asks at once:
 * before, a bad value was found only at the first add().
 */
export function chunkOptionsProblem(options: unknown): ThreadlineError | null {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return new ThreadlineError('INVALID_INPUT', 'chunking must be an object of options');
  const { maxTokens, overlapTokens } = { ...CHUNK_DEFAULTS, ...(options as ChunkOptions) };
  if (!Number.isInteger(maxTokens) || maxTokens < 8) return new ThreadlineError('INVALID_INPUT', `chunking.maxTokens must be an integer ≥ 8, got ${String(maxTokens)}`);
  if (!Number.isInteger(overlapTokens) || overlapTokens < 0 || overlapTokens >= maxTokens) {
    return new ThreadlineError('INVALID_INPUT', `chunking.overlapTokens must be an integer in [0, maxTokens), got ${String(overlapTokens)}`);
  }
  return null;
}

export interface Chunk {
  text: string;
  start: number;
  end: number;
  headingPath: string[];
  /** What gets embedded and indexed: title and heading path, then the text. */
  context: string;
  /** Its page, in paged formats (a chunk never crosses one). */
  page?: number;
}

interface Unit { start: number; end: number; tokens: number }

type CountTokens = (text: string) => number;

const encoder = new TextEncoder();
/**
 * Every token covers at least one byte of UTF-8, whatever the tokenizer, so a
 * text of at most `budget` bytes fits without asking the tokenizer.
 */
function fitsByBytes(text: string, budget: number): boolean {
  return text.length <= budget && encoder.encode(text).length <= budget;
}

/** Characters allowed per token before a unit is cut by length anyway (guards token-poor giant "words"). */
const MAX_CHARS_PER_TOKEN = 12;

export function contextHeader(title: string | undefined, headingPath: readonly string[]): string {
  const parts = [title, ...headingPath].filter((p): p is string => !!p && p.trim().length > 0);
  // Drop a heading that repeats the title (a Markdown H1 usually does).
  const unique = parts.filter((p, i) => i === 0 || p !== parts[i - 1]);
  return unique.join(' › ');
}

export function chunkDocument(doc: ParsedDocument, title: string | undefined, countTokens: CountTokens, options: ChunkOptions = {}): Chunk[] {
  return runSteps(chunkSteps(doc, title, countTokens, options));
}

/**
 * The same chunks, the event loop turning whenever a stretch of `slice` is over (between two sentences):
 * a large document is not one stretch of the worker's time, and an abort stops it there.
 */
export function chunkDocumentSliced(doc: ParsedDocument, title: string | undefined, countTokens: CountTokens, options: ChunkOptions, slice: TimeSlice): Promise<Chunk[]> {
  return runStepsSliced(chunkSteps(doc, title, countTokens, options), slice);
}

/** The chunker as steps: it pauses after each section and each sentence measured, and returns the chunks. */
function* chunkSteps(doc: ParsedDocument, title: string | undefined, countTokens: CountTokens, options: ChunkOptions): Generator<void, Chunk[]> {
  const problem = chunkOptionsProblem(options);
  if (problem) throw problem;
  const { maxTokens, overlapTokens } = { ...CHUNK_DEFAULTS, ...options };
  const out: Chunk[] = [];
  for (const section of doc.sections) {
    const chunks = yield* chunkSection(doc.text, section, title, countTokens, maxTokens, overlapTokens);
    for (const c of chunks) out.push(section.page === undefined ? c : { ...c, page: section.page });
    yield;
  }
  return out;
}

function* chunkSection(text: string, section: Section, title: string | undefined, count: CountTokens, maxTokens: number, overlap: number): Generator<void, Chunk[]> {
  const header = contextHeader(title, section.headingPath);
  const headerTokens = !header ? 0 : fitsByBytes(header, maxTokens) ? encoder.encode(header).length : count(header);
  const budget = Math.max(4, maxTokens - (header ? headerTokens + 1 : 0));
  // Most sections fit whole: one tokenizer call instead of one per sentence.
  if (section.end - section.start <= budget * MAX_CHARS_PER_TOKEN) {
    let start = section.start;
    let end = section.end;
    while (start < end && /\s/.test(text[start] ?? '')) start++;
    while (end > start && /\s/.test(text[end - 1] ?? '')) end--;
    const body = text.slice(start, end);
    if (body && (fitsByBytes(body, budget) || count(body) <= budget)) return [{ text: body, start, end, headingPath: section.headingPath, context: header ? `${header}\n${body}` : body }];
  }
  const units = yield* splitUnits(text, section.start, section.end, count, budget);
  const chunks: Chunk[] = [];
  let first = 0;
  while (first < units.length) {
    let last = first;
    let tokens = units[first]?.tokens ?? 0;
    while (last + 1 < units.length && tokens + (units[last + 1]?.tokens ?? 0) <= budget) tokens += units[++last]?.tokens ?? 0;
    const start = units[first]?.start ?? 0;
    const end = units[last]?.end ?? start;
    const body = text.slice(start, end);
    chunks.push({ text: body, start, end, headingPath: section.headingPath, context: header ? `${header}\n${body}` : body });
    if (last + 1 >= units.length) break;
    // Step back over whole trailing sentences that fit in the overlap, but always advance.
    let next = last + 1;
    let carried = 0;
    while (next - 1 > first && carried + (units[next - 1]?.tokens ?? 0) <= overlap) carried += units[--next]?.tokens ?? 0;
    first = next;
  }
  return chunks;
}

/** Sentences (or line-level pieces) with their token counts; oversized ones are cut into word windows. */
function* splitUnits(text: string, from: number, to: number, count: CountTokens, budget: number): Generator<void, Unit[]> {
  const units: Unit[] = [];
  const boundary = /[^\n]*?(?:[.!?](?=\s)|[。！？]|\n|$)/gy;
  boundary.lastIndex = from;
  while (boundary.lastIndex < to) {
    const at = boundary.lastIndex;
    const m = boundary.exec(text);
    if (!m || m[0].length === 0) { boundary.lastIndex = at + 1; continue; }
    let start = at;
    let end = Math.min(to, at + m[0].length);
    while (start < end && /\s/.test(text[start] ?? '')) start++;
    while (end > start && /\s/.test(text[end - 1] ?? '')) end--;
    if (end > start) pushUnit(units, text, start, end, count, budget);
    yield;
  }
  return units;
}

function pushUnit(units: Unit[], text: string, start: number, end: number, count: CountTokens, budget: number): void {
  const maxChars = budget * MAX_CHARS_PER_TOKEN;
  if (end - start <= maxChars) {
    const tokens = count(text.slice(start, end));
    if (tokens <= budget) { units.push({ start, end, tokens }); return; }
  }
  // Too long: windows of whole words, each within the token and character budgets.
  const word = /\S+/g;
  word.lastIndex = start;
  let winStart = -1;
  let winEnd = start;
  let winTokens = 0;
  for (let m = word.exec(text); m && m.index < end; m = word.exec(text)) {
    let wStart = m.index;
    const wEnd = Math.min(end, m.index + m[0].length);
    while (wStart < wEnd) {
      let pieceEnd = Math.min(wEnd, wStart + maxChars);
      let tokens = count(text.slice(wStart, pieceEnd));
      // Scripts without spaces can carry a token per character: halve until the piece fits.
      while (tokens > budget && pieceEnd - wStart > 1) {
        pieceEnd = wStart + Math.ceil((pieceEnd - wStart) / 2);
        tokens = count(text.slice(wStart, pieceEnd));
      }
      const wouldBe = winStart < 0 ? 0 : pieceEnd - winStart;
      if (winStart >= 0 && (winTokens + tokens > budget || wouldBe > maxChars)) {
        units.push({ start: winStart, end: winEnd, tokens: winTokens });
        winStart = -1;
        winTokens = 0;
      }
      if (winStart < 0) winStart = wStart;
      winEnd = pieceEnd;
      winTokens += tokens;
      wStart = pieceEnd;
    }
  }
  if (winStart >= 0) units.push({ start: winStart, end: winEnd, tokens: winTokens });
}
