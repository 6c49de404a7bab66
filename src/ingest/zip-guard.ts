/**
 * A Word file is a zip archive, and a zip can be a bomb: a few kilobytes that
 * inflate to gigabytes and take the tab down. Before any parser sees one, its
 * central directory is read and every entry is inflated here, counting
 * bytes and stopping at the limit, so neither a huge declared size nor a
 * header that lies about its size gets through.
 */
import { ThreadlineError } from '../errors';

export const ZIP_LIMITS = Object.freeze({
  /** Total inflated bytes of every entry. */
  totalBytes: 256 * 1024 * 1024,
  entries: 10_000,
});

interface Entry { name: string; method: number; compressed: number; size: number; offset: number }

export async function checkZip(bytes: Uint8Array, name: string, limits = ZIP_LIMITS): Promise<void> {
  const entries = centralDirectory(bytes, name);
  if (entries.length > limits.entries) throw tooLarge(name, `${entries.length} entries`);
  let total = 0;
  for (const entry of entries) {
    total += entry.size;
    if (total > limits.totalBytes) throw tooLarge(name, `it declares more than ${limits.totalBytes / 1024 / 1024} MB`);
  }
  let inflated = 0;
  for (const entry of entries) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (entry.offset + 30 > bytes.length || view.getUint32(entry.offset, true) !== 0x04034b50) throw malformed(name, 'an entry points outside the file');
    const start = entry.offset + 30 + view.getUint16(entry.offset + 26, true) + view.getUint16(entry.offset + 28, true);
    const data = bytes.subarray(start, start + entry.compressed);
    if (data.length !== entry.compressed) throw malformed(name, 'it is truncated');
    if (entry.method === 0) inflated += data.length;
    else if (entry.method === 8) inflated += await inflatedSize(data, limits.totalBytes - inflated, name);
    else throw malformed(name, `entry "${entry.name.slice(0, 80)}" uses compression method ${entry.method}`);
    if (inflated > limits.totalBytes) throw tooLarge(name, `it inflates to more than ${limits.totalBytes / 1024 / 1024} MB`);
  }
}

function centralDirectory(bytes: Uint8Array, name: string): Entry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end-of-central-directory record sits in the last 22 + 65,535 bytes.
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === 0x06054b50) { eocd = i; break; }
  }
  if (eocd < 0) throw malformed(name, 'it is not a zip archive (a .docx is one)');
  const count = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  if (count === 0xffff || at === 0xffffffff) throw malformed(name, 'ZIP64 archives are not read');
  const entries: Entry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== 0x02014b50) throw malformed(name, 'its central directory is damaged');
    const nameLength = view.getUint16(at + 28, true);
    entries.push({
      method: view.getUint16(at + 10, true),
      compressed: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      offset: view.getUint32(at + 42, true),
      name: new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength)),
    });
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return entries;
}

/** Inflated length of a raw deflate stream, stopped as soon as it passes `limit`. */
async function inflatedSize(data: Uint8Array, limit: number, name: string): Promise<number> {
  const reader = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return size;
      size += value.length;
      if (size > limit) { void reader.cancel().catch(() => undefined); return size; }
    }
  } catch (error) {
    throw malformed(name, `an entry does not inflate (${error instanceof Error ? error.message : String(error)})`);
  }
}

function malformed(name: string, why: string): ThreadlineError {
  return new ThreadlineError('UNREADABLE_DOCUMENT', `"${name}" is not a readable Word file: ${why}.`, { details: { reason: 'malformed' } });
}

function tooLarge(name: string, why: string): ThreadlineError {
  return new ThreadlineError('UNREADABLE_DOCUMENT', `"${name}" was refused: ${why}, more than a document needs (a zip bomb?).`, { details: { reason: 'too-large' } });
}
