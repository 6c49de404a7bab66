/** Checks what arrives as data from the page (possibly from a hostile caller): queries, search options, lists of strings. */
import { ThreadlineError } from '../errors';
import type { Query, WeightedTerm } from '../retriever';
import { isSafeCount } from '../util/guards';

/** Query text beyond this is ignored (the model truncates far earlier). */
export const MAX_QUERY_CHARS = 4_000;
/** Weighted terms beyond this are refused: a query is a question, not a document. */
export const MAX_QUERY_TERMS = 200;

const invalid = (message: string) => new ThreadlineError('INVALID_INPUT', message);

export function parseQuery(input: unknown): Query {
  if (typeof input === 'string') {
    if (input.trim() === '') throw invalid('search() needs a non-empty query string');
    return { text: input.slice(0, MAX_QUERY_CHARS) };
  }
  if (typeof input !== 'object' || input === null) throw invalid('search() needs a query string or a { text, terms?, hedge?, hedgeWeight?, context? } object');
  const { text, terms, hedge, hedgeWeight, context } = input as Record<string, unknown>;
  if (typeof text !== 'string' || text.trim() === '') throw invalid('query.text must be a non-empty string');
  if (hedge !== undefined && (typeof hedge !== 'string' || hedge.trim() === '')) throw invalid('query.hedge must be a non-empty string when given');
  if (hedgeWeight !== undefined && (hedge === undefined || typeof hedgeWeight !== 'number' || !Number.isFinite(hedgeWeight) || hedgeWeight <= 0 || hedgeWeight > 1)) {
    throw invalid('query.hedgeWeight must be a number more than 0 and at most 1, given with query.hedge');
  }
  const query: Query = {
    text: text.slice(0, MAX_QUERY_CHARS),
    ...(hedge !== undefined ? { hedge: hedge.slice(0, MAX_QUERY_CHARS) } : {}),
    ...(hedgeWeight !== undefined ? { hedgeWeight } : {}),
    ...(context !== undefined ? { context: parseContext(context) } : {}),
  };
  if (terms === undefined) return query;
  if (!Array.isArray(terms) || terms.length > MAX_QUERY_TERMS) throw invalid(`query.terms must be an array of at most ${MAX_QUERY_TERMS} { term, weight } entries`);
  const checked: WeightedTerm[] = terms.map((t: unknown) => {
    const { term, weight } = (typeof t === 'object' && t !== null ? t : {}) as Record<string, unknown>;
    if (typeof term !== 'string' || term.length > 200) throw invalid('query.terms[].term must be a string of at most 200 characters');
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0 || weight > 10) throw invalid('query.terms[].weight must be a number from 0 to 10');
    return { term, weight };
  });
  return { ...query, terms: checked };
}

/** A conversation reads one document; the evaluation reads a document split into passages, each its own id. */
const MAX_CONTEXT_DOCS = 1000;

function parseContext(input: unknown): NonNullable<Query['context']> {
  const { docIds, weight, except } = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  if (!Array.isArray(docIds) || docIds.length > MAX_CONTEXT_DOCS || docIds.some((id) => typeof id !== 'string')) throw invalid(`query.context.docIds must be an array of at most ${MAX_CONTEXT_DOCS} document ids`);
  if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0 || weight > 10) throw invalid('query.context.weight must be a number from 0 to 10');
  if (except !== undefined && (!Array.isArray(except) || except.length > MAX_CONTEXT_DOCS || !except.every(isSafeCount))) throw invalid(`query.context.except must be an array of at most ${MAX_CONTEXT_DOCS} chunk keys (integers from 0)`);
  return { docIds: docIds as string[], weight, ...(except !== undefined ? { except } : {}) };
}

/** k of a search: an integer from 1 to 1000. @default 5 */
export function parseK(k: unknown): number {
  const value = k ?? 5;
  if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > 1000) throw invalid(`k must be an integer from 1 to 1000, got ${describe(value)}`);
  return value as number;
}

export function parseMode(mode: unknown): void {
  if (mode !== undefined && mode !== 'hybrid' && mode !== 'dense' && mode !== 'lexical') throw invalid(`mode must be hybrid, dense or lexical, got ${describe(mode)}`);
}

export function parseModelPending(value: unknown): void {
  if (value !== undefined && value !== 'wait' && value !== 'lexical') throw invalid(`modelPending must be wait or lexical, got ${describe(value)}`);
}

/** An array of strings (at most `max`), or INVALID_INPUT with `message`. */
export function parseStrings(value: unknown, message: string, max = Number.POSITIVE_INFINITY): string[] {
  if (!Array.isArray(value) || value.length > max || value.some((v) => typeof v !== 'string')) throw invalid(message);
  return value as string[];
}

/** A value for an error message, whatever it is (never throws, never "[object Object]"). */
function describe(value: unknown): string {
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value;
}
