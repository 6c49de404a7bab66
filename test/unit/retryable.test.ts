import { describe, expect, it } from 'vitest';
import { isRetryable, ThreadlineError } from '../../src/index';

describe('isRetryable: whether starting again can succeed with the page unchanged', () => {
  it('a failed download, storage, a crashed worker or an unknown error: yes', () => {
    for (const error of [
      new ThreadlineError('MODEL_LOAD_FAILED', 'x', { details: { reason: 'network' } }),
      new ThreadlineError('MODEL_LOAD_FAILED', 'x'),
      new ThreadlineError('STORAGE_FAILED', 'x'),
      new ThreadlineError('STORAGE_QUOTA', 'x'),
      new ThreadlineError('WORKER_CRASHED', 'x'),
      new ThreadlineError('INTERNAL', 'x'),
      new TypeError('not ours'),
    ]) expect(isRetryable(error), String(error)).toBe(true);
  });

  it('what only the site or the browser can change: no', () => {
    for (const error of [
      new ThreadlineError('MODEL_LOAD_FAILED', 'x', { details: { reason: 'csp' } }),
      new ThreadlineError('MODEL_LOAD_FAILED', 'x', { details: { reason: 'page' } }),
      new ThreadlineError('MODEL_LOAD_FAILED', 'x', { details: { reason: 'no-gpu' } }),
      new ThreadlineError('CORRUPT_INDEX', 'x'),
      new ThreadlineError('MODEL_MISMATCH', 'x'),
      new ThreadlineError('INVALID_INPUT', 'x'),
      new ThreadlineError('WORKER_UNAVAILABLE', 'x'),
      new ThreadlineError('INSECURE_CONTEXT', 'x'),
    ]) expect(isRetryable(error), error.code).toBe(false);
  });
});
