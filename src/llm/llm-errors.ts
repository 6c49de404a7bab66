/**
 * web-llm rejects with strings across its worker and with plain Errors in
 * process; this maps both to ThreadlineError codes.
 */
import { ThreadlineError, isThreadlineError } from '../errors';

export function mapLlmError(error: unknown, context: string): ThreadlineError {
  if (isThreadlineError(error)) return error;
  const text = typeof error === 'string' ? error : error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const options = { cause: error, details: { raw: text.slice(0, 500) } };
  if (/abort/i.test(text) && /interrupt|abort(ed)?\b/i.test(text)) return new ThreadlineError('ABORTED', 'The generation was aborted.', options);
  if (/device (?:was |is )?lost|DeviceLost/i.test(text)) return new ThreadlineError('GPU_DEVICE_LOST', `${context}: the GPU device was lost. Reload the model to continue.`, options);
  if (/out of memory|OOM|allocat(?:e|ion) fail|exceeds? .*memory|QuotaExceeded/i.test(text)) return new ThreadlineError('OUT_OF_MEMORY', `${context}: out of memory. Try a smaller model or close other GPU-heavy tabs.`, options);
  if (/WebGPU|navigator\.gpu|adapter/i.test(text)) return new ThreadlineError('WEBGPU_UNAVAILABLE', `${context}: ${text}`, options);
  // A request the browser refused or could not make says nothing more (Chromium "Failed to fetch", Firefox "NetworkError…", Safari "Load failed").
  if (/Failed to fetch|NetworkError|Load failed/i.test(text)) return new ThreadlineError('MODEL_LOAD_FAILED', `${context}: ${text}. The model's files could not be downloaded: offline, or refused (a Content-Security-Policy's connect-src must allow the hosts they come from: huggingface.co and raw.githubusercontent.com unless appConfig names others).`, options);
  if (/fetch|network|404|Failed to load|cache/i.test(text)) return new ThreadlineError('MODEL_LOAD_FAILED', `${context}: ${text}`, options);
  return new ThreadlineError('LLM_FAILED', `${context}: ${text}`, options);
}
