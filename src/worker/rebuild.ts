/** A rebuild's work: every stored chunk re-embedded with the new model, as documents ready to commit in one transaction. */
import type { Embedder } from '../embedding/embedder';
import { documentFields, storedChunk } from '../ingest/prepare';
import type { ProgressListener } from '../progress';
import { every } from '../util/every';
import type { PendingDoc, StoredIndex } from '../storage/index-store';

/** Progress is reported at most this often (and once at the end): a rebuild of many small documents would otherwise post one message each. */
const PROGRESS_MS = 100;

export async function reembed(docs: StoredIndex['docs'], chunks: StoredIndex['chunks'], embedder: Embedder, onProgress?: ProgressListener): Promise<PendingDoc[]> {
  const byKey = new Map(chunks.map((c) => [c.key, c]));
  const pending: PendingDoc[] = [];
  const chunksTotal = docs.reduce((n, doc) => n + doc.chunkKeys.length, 0);
  let chunksDone = 0;
  // The first event is posted below; the next after PROGRESS_MS.
  const due = every(PROGRESS_MS, performance.now());
  onProgress?.({ phase: 'rebuild', docsDone: 0, docsTotal: docs.length, chunksDone, chunksTotal });
  for (const doc of docs) {
    // In the document's own order (storage hands chunks back in shard order).
    const own = doc.chunkKeys.flatMap((key) => byKey.get(key) ?? []);
    pending.push({
      record: { id: doc.id, hash: doc.hash, chars: doc.chars, addedAt: doc.addedAt, ...documentFields(doc) },
      chunks: own.map((c) => storedChunk(c.docId, c)),
      vectors: await embedder.embed(own.map((c) => c.context)),
    });
    chunksDone += doc.chunkKeys.length;
    if (due() || pending.length === docs.length) {
      onProgress?.({ phase: 'rebuild', docsDone: pending.length, docsTotal: docs.length, chunksDone, chunksTotal });
    }
  }
  return pending;
}
