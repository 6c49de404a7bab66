/**
 * Loading a prebuilt index file (`.tlix`) into an index: same model first; the
 * very bytes stored before cost a hash and nothing more; anything else is
 * decoded and checked in full (prebuilt-pending.ts) before it replaces the
 * stored index in one write. A corrupt or mismatched file changes nothing,
 * and neither does another file's, where the caller asks a name to hold one
 * file's index only (`onOtherSource: 'error'`).
 */
import { supersededBy } from '../embedding/offline-model';
import { isThreadlineError, ThreadlineError } from '../errors';
import { payloadDigest, readPrebuiltHeader, type PrebuiltHeader } from '../prebuilt/format';
import { sourceKey } from '../prebuilt/source-key';
import type { LoadResult } from '../retriever';
import type { PendingDoc, PrebuiltSource } from '../storage/index-store';
import type { Manifest } from '../storage/schema';
import { prebuiltPending } from './prebuilt-pending';

export interface PrebuiltTarget {
  /** The index's name, for messages. */
  name: string;
  modelId: string;
  manifest(): Promise<Manifest | undefined>;
  /** The model's dimensions (waits for the model). */
  dims(): Promise<number>;
  /** Replaces the whole index with these documents, recording the file's hash and source (after `source.guard` passes). */
  replace(pending: PendingDoc[], header: PrebuiltHeader, source: PrebuiltSource): Promise<void>;
  /** Records `url` as where the stored file with this hash came from, where nothing is recorded yet. */
  adopt(hash: string, url: string): Promise<void>;
}

/** Where the file came from, and what to do when the name holds another file's index. */
export interface LoadFrom {
  /** The URL it was fetched from (any form: it is recorded as its `sourceKey`). */
  url?: string;
  /** @default 'replace' */
  onOtherSource?: 'replace' | 'error';
}

/**
 * Refuses to replace an index that came from another file (`held`), or from
 * documents added one by one (no file at all), while it holds anything. An
 * empty index, and one loaded before sources were recorded (a file's hash
 * without its source), may be taken. `old` is the stored manifest, unchecked.
 */
export function refuseOtherSource(name: string, old: unknown, url: string): void {
  const m = (typeof old === 'object' && old !== null ? old : {}) as { source?: unknown; sourceHash?: unknown; docCount?: unknown; chunkCount?: unknown };
  const holds = (typeof m.docCount === 'number' && m.docCount > 0) || (typeof m.chunkCount === 'number' && m.chunkCount > 0);
  if (!holds) return;
  const held = typeof m.source === 'string' ? m.source : typeof m.sourceHash === 'string' ? undefined : 'documents added with add()';
  if (held === undefined || held === url) return;
  throw new ThreadlineError('NAME_IN_USE', `The index "${name}" already holds another index (${held}), so ${url} was not loaded into it. Give each index file its own name.`, {
    details: { name, stored: held, requested: url },
  });
}

export async function loadPrebuiltInto(target: PrebuiltTarget, bytes: Uint8Array, from: LoadFrom = {}): Promise<LoadResult> {
  try {
    return await loadChecked(target, bytes, from);
  } catch (error) {
    throw withUrl(error, from.url);
  }
}

/** A file's own fault (CORRUPT_INDEX) names the file it is about, as every other load failure does. */
function withUrl(error: unknown, url: string | undefined): unknown {
  if (url === undefined || !isThreadlineError(error, 'CORRUPT_INDEX') || typeof error.details.why !== 'string') return error;
  const why = error.details.why;
  return new ThreadlineError('CORRUPT_INDEX', `The prebuilt index ${url} is not valid: ${why}. Rebuild it with \`npx threadline index\` and deploy it again.`, { details: { ...error.details, url }, cause: error });
}

async function loadChecked(target: PrebuiltTarget, bytes: Uint8Array, from: LoadFrom): Promise<LoadResult> {
  const { header: claimed } = readPrebuiltHeader(bytes);
  if (supersededBy(claimed.modelId, target.modelId)) {
    // Its vectors are an earlier release's offline model's, which today's model does not make. Not stored and
    // re-embedded: every new visitor's browser would redo that work; the site should serve a file built with this release.
    throw new ThreadlineError('MODEL_MISMATCH', `The prebuilt index was built with an earlier release's offline model ("${claimed.modelId}"); this release's is "${target.modelId}". Build the file again with this release (\`npx threadline index\`, or the threadline/vite plugin with the site) and deploy it.`, {
      details: { stored: { modelId: claimed.modelId, dims: claimed.dims }, requested: { modelId: target.modelId }, reason: 'superseded' },
    });
  }
  if (claimed.modelId !== target.modelId) throw new ThreadlineError('MODEL_MISMATCH', `The prebuilt index was built with "${claimed.modelId}" but this index uses "${target.modelId}". Configure the same embedding model.`, {
    details: { stored: { modelId: claimed.modelId, dims: claimed.dims }, requested: { modelId: target.modelId } },
  });
  const url = from.url === undefined ? undefined : sourceKey(from.url);
  // The very bytes verified and stored before (the payload's digest is the stored hash, as the header claims):
  // a revisit's reload of the same file then costs a hash, not a decode, and does not wait for the model.
  // (The counts come from the stored manifest: the header itself is not covered by the hash.) The same bytes
  // are the same index whatever URL served them; an index stored before sources were recorded learns its own.
  const manifest = await target.manifest();
  const stored = manifest?.sourceHash;
  if (manifest && stored && claimed.hash === stored && (await payloadDigest(bytes)) === stored) {
    if (url !== undefined && typeof manifest.source !== 'string') await target.adopt(stored, url);
    return { loaded: false, docs: manifest.docCount, chunks: manifest.chunkCount };
  }
  // Asked before the decode, so a page that is refused learns it at once; asked again in the replacing transaction.
  const guard = from.onOtherSource === 'error' && url !== undefined ? (old: unknown) => refuseOtherSource(target.name, old, url) : undefined;
  guard?.(manifest);
  // Verify all of it before anything else, even a file that claims the hash already loaded: a damaged copy is an error.
  // The file's vectors must be the model's own size, or every later search and add would fail.
  const { header, pending } = await prebuiltPending(bytes, { modelId: target.modelId, dims: await target.dims() });
  if ((await target.manifest())?.sourceHash === header.hash) return { loaded: false, docs: header.docs, chunks: header.chunks };
  await target.replace(pending, header, { hash: header.hash, url, guard });
  return { loaded: true, docs: header.docs, chunks: header.chunks };
}
