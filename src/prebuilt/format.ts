/**
 * The prebuilt index file (`.tlix`): one compact binary a static site ships,
 * so visitors download the index instead of embedding the whole site.
 *
 *   "TLIX" | u32 header length | header JSON | u32 body length | body JSON | pad to 4 | f32 vectors (LE)
 *
 * The header carries the format version, model id, dimensions, counts and a
 * SHA-256 of everything after the header; decoding checks all of it and
 * fails with CORRUPT_INDEX rather than loading half a file.
 */
import { ThreadlineError } from '../errors';
import type { MetadataValue } from '../index-data';

export const PREBUILT_FORMAT = 1;

/**
 * The largest index file a browser loads: `load()` holds the file whole and
 * decodes it beside it, in a tab's memory, and refuses a larger one as it
 * arrives (worker/fetch-prebuilt.ts); building one is refused too. 1 GiB holds
 * about 600,000 chunks of 384 dimensions.
 */
export const MAX_INDEX_BYTES = 2 ** 30;

/** Refuses an index of `bytes` that no browser would load, before it is written. */
export function assertLoadableSize(bytes: number): void {
  if (bytes <= MAX_INDEX_BYTES) return;
  throw new ThreadlineError('INVALID_INPUT', `The index would be ${(bytes / 2 ** 30).toFixed(2)} GiB, and browsers load at most ${MAX_INDEX_BYTES / 2 ** 30} GiB (load() refuses larger files): index fewer documents, or split them into several indexes.`, { details: { bytes, max: MAX_INDEX_BYTES } });
}
const MAGIC = [0x54, 0x4c, 0x49, 0x58]; // "TLIX"

export interface PrebuiltHeader {
  format: number;
  modelId: string;
  dims: number;
  docs: number;
  chunks: number;
  /** SHA-256 (hex) of the bytes after the header. */
  hash: string;
  createdAt: string;
}

export interface PrebuiltDoc { id: string; hash: string; chars: number; title?: string; url?: string; metadata?: Record<string, MetadataValue> }
export interface PrebuiltChunk { docId: string; text: string; context: string; headingPath: string[]; start: number; end: number; page?: number }

export interface PrebuiltIndex {
  header: PrebuiltHeader;
  docs: PrebuiltDoc[];
  chunks: PrebuiltChunk[];
  /** Packed `chunks × dims`, in chunk order. */
  vectors: Float32Array;
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The SHA-256 of a file's payload (what its header's `hash` claims), without decoding it. */
export async function payloadDigest(bytes: Uint8Array): Promise<string> {
  return sha256(bytes.subarray(readPrebuiltHeader(bytes).payloadStart));
}

function corrupt(why: string): ThreadlineError {
  return new ThreadlineError('CORRUPT_INDEX', `The prebuilt index file is not valid: ${why}.`, { details: { why } });
}

export async function encodePrebuilt(parts: { modelId: string; dims: number; docs: PrebuiltDoc[]; chunks: PrebuiltChunk[]; vectors: Float32Array }): Promise<Uint8Array> {
  if (parts.vectors.length !== parts.chunks.length * parts.dims) throw new ThreadlineError('INVALID_INPUT', 'vectors do not match chunks × dims');
  const encoder = new TextEncoder();
  const body = encoder.encode(JSON.stringify({ docs: parts.docs, chunks: parts.chunks }));
  const pad = (4 - ((4 + body.length) % 4)) % 4;
  const payload = new Uint8Array(4 + body.length + pad + parts.vectors.byteLength);
  const view = new DataView(payload.buffer);
  view.setUint32(0, body.length, true);
  payload.set(body, 4);
  const vectorStart = 4 + body.length + pad;
  for (let i = 0; i < parts.vectors.length; i++) view.setFloat32(vectorStart + i * 4, parts.vectors[i] as number, true);
  const header: PrebuiltHeader = {
    format: PREBUILT_FORMAT, modelId: parts.modelId, dims: parts.dims, docs: parts.docs.length, chunks: parts.chunks.length,
    hash: await sha256(payload), createdAt: new Date().toISOString(),
  };
  const headerBytes = encoder.encode(JSON.stringify(header));
  const out = new Uint8Array(8 + headerBytes.length + payload.length);
  out.set(MAGIC, 0);
  new DataView(out.buffer).setUint32(4, headerBytes.length, true);
  out.set(headerBytes, 8);
  out.set(payload, 8 + headerBytes.length);
  return out;
}

/** Reads only the header (cheap: decide whether a file is new before verifying it all). */
export function readPrebuiltHeader(bytes: Uint8Array): { header: PrebuiltHeader; payloadStart: number } {
  if (bytes.length < 8 || MAGIC.some((b, i) => bytes[i] !== b)) throw corrupt('it does not start with the TLIX signature');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(4, true);
  if (8 + length > bytes.length) throw corrupt('the header is truncated');
  let header: PrebuiltHeader;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, 8 + length))) as PrebuiltHeader;
  } catch {
    throw corrupt('the header is not JSON');
  }
  if (header.format !== PREBUILT_FORMAT) throw corrupt(`format ${String(header.format)} is not supported (this threadline reads format ${PREBUILT_FORMAT})`);
  if (typeof header.modelId !== 'string' || !Number.isInteger(header.dims) || header.dims <= 0 || typeof header.hash !== 'string') throw corrupt('the header is incomplete');
  return { header, payloadStart: 8 + length };
}

export async function decodePrebuilt(bytes: Uint8Array): Promise<PrebuiltIndex> {
  const { header, payloadStart } = readPrebuiltHeader(bytes);
  const payload = bytes.subarray(payloadStart);
  if ((await sha256(payload)) !== header.hash) throw corrupt('its content does not match the hash in its header');
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  if (payload.length < 4) throw corrupt('its body is truncated');
  const bodyLength = view.getUint32(0, true);
  if (4 + bodyLength > payload.length) throw corrupt('its body is truncated');
  let body: { docs: PrebuiltDoc[]; chunks: PrebuiltChunk[] };
  try {
    body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(payload.subarray(4, 4 + bodyLength))) as typeof body;
  } catch {
    throw corrupt('its body is not JSON');
  }
  if (typeof body !== 'object' || body === null || !Array.isArray(body.docs) || !Array.isArray(body.chunks)) throw corrupt('its body lacks the documents and chunks lists');
  if (body.docs.length !== header.docs || body.chunks.length !== header.chunks) throw corrupt('its counts do not match its header');
  const vectorStart = 4 + bodyLength + ((4 - ((4 + bodyLength) % 4)) % 4);
  if (payload.length - vectorStart !== header.chunks * header.dims * 4) throw corrupt('its vectors are truncated');
  const vectors = new Float32Array(header.chunks * header.dims);
  for (let i = 0; i < vectors.length; i++) vectors[i] = view.getFloat32(vectorStart + i * 4, true);
  return { header, docs: body.docs, chunks: body.chunks, vectors };
}
