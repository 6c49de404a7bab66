/**
 * createThreadline()'s options, checked at once: a wrong value is INVALID_INPUT naming it before any worker
 * starts, not a failure at the first call that happens to use it (a chunk size or a batch size of 0 failed only
 * at the first add()) or a silent other meaning (a mistyped onModelMismatch meant 'error'; a string for `llm`
 * was taken as a WebLLM configuration). The defaults (threadline.ts) all pass, so only what was given is checked.
 */
import { embedderOptionsProblem } from './embedding/embedder-options';
import { ThreadlineError } from './errors';
import { chunkOptionsProblem } from './retrieval/chunker';
import type { ThreadlineOptions } from './threadline';
import { shown } from './util/shown';

export function threadlineOptionsProblem(options: ThreadlineOptions): ThreadlineError | null {
  const o = options as Record<keyof ThreadlineOptions, unknown>;
  const invalid = (message: string) => new ThreadlineError('INVALID_INPUT', message);
  const name = o.name;
  if (name != null && (typeof name !== 'string' || name.trim() === '' || name.length > 200)) return invalid('name must be a non-empty string of at most 200 characters');
  for (const [key, value] of Object.entries(options.search?.weights ?? {}) as [string, unknown][]) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (key === 'corroboration' && value > 1)) {
      return invalid(`search.weights.${key} must be a finite number ≥ 0${key === 'corroboration' ? ' and ≤ 1' : ''} (got ${String(value)})`);
    }
  }
  const problem = embedderOptionsProblem(o.embedder ?? {}) ?? chunkOptionsProblem(o.chunking ?? {});
  if (problem) return problem;
  if (o.onModelMismatch !== undefined && o.onModelMismatch !== 'error' && o.onModelMismatch !== 'rebuild') return invalid(`onModelMismatch must be 'error' or 'rebuild', got ${shown(o.onModelMismatch)}`);
  const int8 = options.search?.int8 as unknown;
  if (int8 !== undefined && typeof int8 !== 'boolean') return invalid(`search.int8 must be true or false, got ${shown(int8)}`);
  for (const key of ['onProgress', 'worker'] as const) {
    if (o[key] !== undefined && typeof o[key] !== 'function') return invalid(`${key} must be a function`);
  }
  if (o.signal !== undefined && !(o.signal instanceof AbortSignal)) return invalid('signal must be an AbortSignal');
  const llm = o.llm;
  if (llm !== undefined && llm !== false && (typeof llm !== 'object' || llm === null || Array.isArray(llm))) {
    return invalid(`llm must be false, an Llm or a WebLLM configuration object ({ model, … }), got ${shown(llm)}`);
  }
  return null;
}
