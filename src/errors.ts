/**
 * The one error type threadline throws. Every failure that crosses a worker
 * boundary is converted to it, so callers can branch on `code` instead of
 * parsing messages. README lists each code with what a user should do.
 */
export type ThreadlineErrorCode =
  /** The caller passed something unusable (empty id, non-string text, bad option). */
  | 'INVALID_INPUT'
  /** A document's content cannot be read: an encrypted or damaged PDF, one with no text layer, a malformed or oversized Word file (`details.reason`). */
  | 'UNREADABLE_DOCUMENT'
  /** The operation was cancelled through its AbortSignal. */
  | 'ABORTED'
  /** The embedding model could not be loaded (missing files, offline, unsupported device). */
  | 'MODEL_LOAD_FAILED'
  /** The embedding model failed on input it had loaded fine. */
  | 'EMBEDDING_FAILED'
  /** The stored index was built with another model or dimension; rebuild or open with that model. */
  | 'MODEL_MISMATCH'
  /** A prebuilt index file is truncated, altered or of an unknown format; the stored index is unchanged. */
  | 'CORRUPT_INDEX'
  /** `load(url, { onOtherSource: 'error' })`: the name already holds an index loaded from another file; it is unchanged. */
  | 'NAME_IN_USE'
  /** The browser refused to store more data. */
  | 'STORAGE_QUOTA'
  /** IndexedDB failed for another reason (blocked upgrade, corrupt record, unavailable). */
  | 'STORAGE_FAILED'
  /** The worker died; pending calls are rejected and the next call restarts it. */
  | 'WORKER_CRASHED'
  /** A worker could not start: the page's Content-Security-Policy (worker-src, Trusted Types) refused it, or its script did not load; retrying does not help until the page changes. */
  | 'WORKER_UNAVAILABLE'
  /** The instance was disposed. */
  | 'DISPOSED'
  /** The page is not a secure context (https or localhost): the browser withholds what threadline needs (Web Locks, Web Crypto). */
  | 'INSECURE_CONTEXT'
  /** WebGPU is missing or too limited to run the LLM. */
  | 'WEBGPU_UNAVAILABLE'
  /** The language model failed. */
  | 'LLM_FAILED'
  /** The GPU device was lost (driver reset, tab backgrounded too long); reload the model. */
  | 'GPU_DEVICE_LOST'
  /** The GPU (or the tab) ran out of memory; pick a smaller model or close other tabs. */
  | 'OUT_OF_MEMORY'
  /** A bug in threadline: please report it. */
  | 'INTERNAL';

export interface ThreadlineErrorOptions {
  cause?: unknown;
  details?: Record<string, unknown>;
}

/** Marks every ThreadlineError, whichever copy of this module made it (a registered symbol is the same in all of them). */
const BRAND = Symbol.for('threadline.ThreadlineError');

export class ThreadlineError extends Error {
  override readonly name = 'ThreadlineError';
  readonly code: ThreadlineErrorCode;
  readonly details: Record<string, unknown>;

  /**
   * `instanceof` recognises an error from any copy of threadline, not only
   * this module's class: the CLI bundles its own copy and calls the package's
   * threadline/build, and an app's bundler may duplicate a module. A check that
   * failed across copies would turn a typed error into an unknown one.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
  }

  constructor(code: ThreadlineErrorCode, message: string, options: ThreadlineErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details ?? {};
    Object.defineProperty(this, BRAND, { value: true });
  }
}

export function isThreadlineError(value: unknown, code?: ThreadlineErrorCode): value is ThreadlineError {
  return value instanceof ThreadlineError && (code === undefined || value.code === code);
}

/** Wraps any thrown value; a ThreadlineError passes through unchanged. */
export function toThreadlineError(value: unknown, code: ThreadlineErrorCode, message?: string): ThreadlineError {
  if (value instanceof ThreadlineError) return value;
  if (isAbortLike(value)) return new ThreadlineError('ABORTED', 'The operation was aborted.', { cause: value });
  const text = value instanceof Error ? value.message : String(value);
  return new ThreadlineError(code, message ? `${message}: ${text}` : text, { cause: value });
}

function isAbortLike(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { name?: unknown }).name === 'AbortError';
}

/** Throws ABORTED when the signal has fired; call between units of long work. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ThreadlineError('ABORTED', 'The operation was aborted.', { cause: signal.reason });
}
