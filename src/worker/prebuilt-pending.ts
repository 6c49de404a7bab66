/**
 * A prebuilt index file turned into the documents to store, after checking
 * every decoded field: anyone who can write a file can give it a valid hash,
 * so the hash proves integrity, not sanity. Nothing is written until all of
 * it has passed; a failure is CORRUPT_INDEX (or MODEL_MISMATCH) and leaves
 * the stored index as it was.
 */
import { ThreadlineError } from '../errors';
import { documentFields } from '../ingest/prepare';
import { decodePrebuilt, type PrebuiltHeader } from '../prebuilt/format';
import type { PendingDoc } from '../storage/index-store';
import { isCount, isText } from '../util/guards';

const corrupt = (why: string) => new ThreadlineError('CORRUPT_INDEX', `The prebuilt index file is not valid: ${why}.`, { details: { why } });
const isMetadataValue = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** Decodes and checks `bytes`; the model must be the index's own (id and dimensions). */
export async function prebuiltPending(bytes: Uint8Array, model: { modelId: string; dims: number }): Promise<{ header: PrebuiltHeader; pending: PendingDoc[] }> {
  const file = await decodePrebuilt(bytes);
  const { header } = file;
  if (header.modelId !== model.modelId || header.dims !== model.dims) {
    throw new ThreadlineError('MODEL_MISMATCH', `The prebuilt index was built with "${header.modelId}" (${header.dims} dims) but this index uses "${model.modelId}" (${model.dims} dims). Configure the same embedding model.`, {
      details: { stored: { modelId: header.modelId, dims: header.dims }, requested: model },
    });
  }
  if (!Array.isArray(file.docs) || !Array.isArray(file.chunks)) throw corrupt('its documents or chunks are not lists');
  const ids = new Set<string>();
  for (const [i, d] of file.docs.entries()) {
    const doc = d as unknown as Record<string, unknown> | null;
    if (typeof doc !== 'object' || doc === null || !isText(doc.id) || doc.id === '' || !isText(doc.hash) || !isCount(doc.chars)) throw corrupt(`document ${i} lacks a string id, hash or character count`);
    if (ids.has(doc.id)) throw corrupt(`document id "${doc.id}" appears twice`);
    if ((doc.title !== undefined && !isText(doc.title)) || (doc.url !== undefined && !isText(doc.url))) throw corrupt(`document "${doc.id}" has a title or url that is not text`);
    const meta = doc.metadata;
    if (meta !== undefined && (typeof meta !== 'object' || meta === null || Array.isArray(meta) || !Object.values(meta).every(isMetadataValue))) throw corrupt(`document "${doc.id}" has invalid metadata`);
    ids.add(doc.id);
  }
  for (const [i, c] of file.chunks.entries()) {
    const chunk = c as unknown as Record<string, unknown> | null;
    if (typeof chunk !== 'object' || chunk === null || !isText(chunk.docId) || !ids.has(chunk.docId)) throw corrupt(`chunk ${i} belongs to no listed document`);
    if (!isText(chunk.text) || !isText(chunk.context)) throw corrupt(`chunk ${i} has text that is not a string`);
    if (!Array.isArray(chunk.headingPath) || !chunk.headingPath.every(isText)) throw corrupt(`chunk ${i} has a heading path that is not a list of strings`);
    if (!isCount(chunk.start) || !isCount(chunk.end) || chunk.start > chunk.end) throw corrupt(`chunk ${i} has invalid offsets`);
    if (chunk.page !== undefined && !(isCount(chunk.page) && chunk.page > 0)) throw corrupt(`chunk ${i} has a page that is not a page number`);
  }
  for (let i = 0; i < file.vectors.length; i++) if (!Number.isFinite(file.vectors[i])) throw corrupt('a vector holds a value that is not a finite number');
  const byDoc = new Map<string, typeof file.chunks>();
  for (const c of file.chunks) {
    let list = byDoc.get(c.docId);
    if (!list) byDoc.set(c.docId, (list = []));
    list.push(c);
  }
  let offset = 0;
  const pending: PendingDoc[] = file.docs.map((doc) => {
    const chunks = byDoc.get(doc.id) ?? [];
    const vectors = file.vectors.subarray(offset * header.dims, (offset + chunks.length) * header.dims);
    offset += chunks.length;
    return { record: { id: doc.id, hash: doc.hash, chars: doc.chars, addedAt: Date.now(), ...documentFields(doc) }, chunks, vectors };
  });
  // Vectors are in chunk order, so each document's chunks must be contiguous in the file.
  let at = 0;
  for (const p of pending) {
    for (const c of p.chunks) if (file.chunks[at++] !== c) throw corrupt('it lists chunks out of document order');
  }
  return { header, pending };
}
