/**
 * Loading a prebuilt index file (`.tlix`) into an index: same model first; the
 * very bytes stored before cost a hash and nothing more; anything else is
 * decoded and checked in full (prebuilt-pending.ts) before it replaces the
 * stored index in one write. A corrupt or mismatched file changes nothing.
 */
import { ThreadlineError } from '../errors';
import { payloadDigest, readPrebuiltHeader, type PrebuiltHeader } from '../prebuilt/format';
import type { LoadResult } from '../retriever';
import type { PendingDoc } from '../storage/index-store';
import type { Manifest } from '../storage/schema';
import { prebuiltPending } from './prebuilt-pending';

export interface PrebuiltTarget {
  modelId: string;
  manifest(): Promise<Manifest | undefined>;
  /** The model's dimensions (waits for the model). */
  dims(): Promise<number>;
  /** Replaces the whole index with these documents, recording the file's hash. */
  replace(pending: PendingDoc[], header: PrebuiltHeader): Promise<void>;
}

export async function loadPrebuiltInto(target: PrebuiltTarget, bytes: Uint8Array): Promise<LoadResult> {
  const { header: claimed } = readPrebuiltHeader(bytes);
  if (claimed.modelId !== target.modelId) throw new ThreadlineError('MODEL_MISMATCH', `The prebuilt index was built with "${claimed.modelId}" but this index uses "${target.modelId}". Configure the same embedding model.`, {
    details: { stored: { modelId: claimed.modelId, dims: claimed.dims }, requested: { modelId: target.modelId } },
  });
  // The very bytes verified and stored before (the payload's digest is the stored hash, as the header claims):
  // a revisit's reload of the same file then costs a hash, not a decode, and does not wait for the model.
  // (The counts come from the stored manifest: the header itself is not covered by the hash.)
  const manifest = await target.manifest();
  const stored = manifest?.sourceHash;
  if (manifest && stored && claimed.hash === stored && (await payloadDigest(bytes)) === stored) return { loaded: false, docs: manifest.docCount, chunks: manifest.chunkCount };
  // Verify all of it before anything else, even a file that claims the hash already loaded: a damaged copy is an error.
  // The file's vectors must be the model's own size, or every later search and add would fail.
  const { header, pending } = await prebuiltPending(bytes, { modelId: target.modelId, dims: await target.dims() });
  if ((await target.manifest())?.sourceHash === header.hash) return { loaded: false, docs: header.docs, chunks: header.chunks };
  await target.replace(pending, header);
  return { loaded: true, docs: header.docs, chunks: header.chunks };
}
