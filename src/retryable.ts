/**
 * Whether starting again can succeed with the page unchanged, for a UI that offers a "Try again" (the element
 * and the playground do): a download or storage that failed, a crashed worker. Not a refusal by the page's
 * policy, a file that is not there (a host's page in its place), a corrupt or mismatched index, a wrong option,
 * no GPU where one was asked for, or a missing browser feature: those need the site or the browser changed.
 */
import { isThreadlineError } from './errors';

export function isRetryable(error: unknown): boolean {
  if (!isThreadlineError(error)) return true; // INTERNAL
  const reason = error.details.reason;
  if (error.code === 'MODEL_LOAD_FAILED') return reason !== 'csp' && reason !== 'page' && reason !== 'no-gpu';
  return error.code === 'STORAGE_FAILED' || error.code === 'STORAGE_QUOTA' || error.code === 'WORKER_CRASHED' || error.code === 'INTERNAL';
}
