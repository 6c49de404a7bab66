/** A rebuild's work: every stored chunk re-embedded with the new model, as documents ready to commit in one transaction. */
import type { Embedder } from '../embedding/embedder';
import { documentFields, storedChunk } from '../ingest/prepare';
import type { PendingDoc, StoredIndex } from '../storage/index-store';

export async function reembed(docs: StoredIndex['docs'], chunks: StoredIndex['chunks'], embedder: Embedder): Promise<PendingDoc[]> {
  const byKey = new Map(chunks.map((c) => [c.key, c]));
  const pending: PendingDoc[] = [];
  for (const doc of docs) {
    // In the document's own order (storage hands chunks back in shard order).
    const own = doc.chunkKeys.flatMap((key) => byKey.get(key) ?? []);
    pending.push({
      record: { id: doc.id, hash: doc.hash, chars: doc.chars, addedAt: doc.addedAt, ...documentFields(doc) },
      chunks: own.map((c) => storedChunk(c.docId, c)),
      vectors: await embedder.embed(own.map((c) => c.context)),
    });
  }
  return pending;
}
