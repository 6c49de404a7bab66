/**
 * Maps IndexedDB failures to ThreadlineError codes. Quota errors arrive in
 * several disguises: a QuotaExceededError on the request, on the transaction
 * (surfacing as an AbortError), or an UnknownError whose message mentions
 * quota or disk space. All of them become STORAGE_QUOTA.
 */
import { ThreadlineError } from '../errors';

function errorName(value: unknown): string {
  const name = typeof value === 'object' && value !== null ? (value as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : '';
}

function errorMessage(value: unknown): string {
  const message = typeof value === 'object' && value !== null ? (value as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : String(value);
}

/** Follows `cause` and a transaction's `error`, where the real reason often hides. */
function reasons(value: unknown): unknown[] {
  const out: unknown[] = [];
  let current: unknown = value;
  for (let depth = 0; current && depth < 5; depth++) {
    out.push(current);
    const c = current as { cause?: unknown; target?: { error?: unknown; transaction?: { error?: unknown } } };
    current = c.cause ?? c.target?.error ?? c.target?.transaction?.error;
  }
  return out;
}

export function isQuotaError(value: unknown): boolean {
  return reasons(value).some((r) => errorName(r) === 'QuotaExceededError'
    || /quota|disk (?:is )?full|no space|exceeded the storage/i.test(errorMessage(r)));
}

export function storageError(value: unknown, message: string): ThreadlineError {
  if (value instanceof ThreadlineError) return value;
  if (isQuotaError(value)) {
    return new ThreadlineError('STORAGE_QUOTA', `${message}: the browser's storage quota is full. Free space (remove documents, clear other sites' data) and retry.`, { cause: value });
  }
  return new ThreadlineError('STORAGE_FAILED', `${message}: ${errorMessage(value)}`, { cause: value, details: { name: errorName(value) } });
}

/**
 * Gives up a write transaction after an exception: aborts it, so nothing
 * issued before the throw commits, and silences its `done` rejection, which
 * the caller no longer awaits.
 */
export function abandon(tx: { abort(): void; done: Promise<void> }): void {
  tx.done.catch(() => undefined);
  try {
    tx.abort();
  } catch {
    // Already finished or aborted.
  }
}
