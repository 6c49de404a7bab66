/**
 * A strict reader for the safetensors format (an 8-byte little-endian header
 * length, a JSON header naming each tensor's dtype, shape and byte range, then
 * the raw data). Model files are untrusted input: every length, offset and
 * shape is checked against the buffer before any view is made, and tensors
 * may not overlap, so a hostile file fails with a message instead of reading
 * out of bounds or allocating without limit.
 */
export type SafetensorsDtype = 'F32' | 'F16' | 'I8' | 'U8' | 'U16' | 'I32' | 'I64';

export interface Tensor {
  dtype: SafetensorsDtype;
  shape: number[];
  /** The tensor's bytes (a view into the file; little-endian). */
  bytes: Uint8Array;
}

const SIZES: Record<SafetensorsDtype, number> = { F32: 4, F16: 2, I8: 1, U8: 1, U16: 2, I32: 4, I64: 8 };
/** Far above any real header (a few KB), far below what could hurt to parse. */
const MAX_HEADER = 16 * 1024 * 1024;

export class SafetensorsError extends Error {}

export function readSafetensors(buffer: ArrayBuffer): Map<string, Tensor> {
  return readSafetensorsFile(buffer).tensors;
}

/** The tensors and the header's `__metadata__` (its string values, as the format defines them; empty when absent). */
export function readSafetensorsFile(buffer: ArrayBuffer): { tensors: Map<string, Tensor>; metadata: Readonly<Record<string, string>> } {
  if (buffer.byteLength < 8) throw new SafetensorsError(`file of ${buffer.byteLength} bytes is too short for a safetensors header`);
  const view = new DataView(buffer);
  const headerLength = view.getUint32(0, true) + view.getUint32(4, true) * 2 ** 32;
  if (headerLength < 2 || headerLength > MAX_HEADER || 8 + headerLength > buffer.byteLength) {
    throw new SafetensorsError(`header length ${headerLength} does not fit a ${buffer.byteLength}-byte file`);
  }
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array(buffer, 8, headerLength)));
  } catch {
    throw new SafetensorsError('header is not valid UTF-8 JSON');
  }
  if (!header || typeof header !== 'object' || Array.isArray(header)) throw new SafetensorsError('header is not a JSON object');
  const dataStart = 8 + headerLength;
  const dataLength = buffer.byteLength - dataStart;
  const tensors = new Map<string, Tensor>();
  const ranges: [number, number][] = [];
  const metadata: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, entry] of Object.entries(header)) {
    if (name === '__metadata__') {
      // Values that are not strings break the format's rule; they were ignored before metadata was read, and still are.
      if (entry && typeof entry === 'object' && !Array.isArray(entry)) {
        for (const [key, value] of Object.entries(entry as Record<string, unknown>)) if (typeof value === 'string') metadata[key] = value;
      }
      continue;
    }
    const { dtype, shape, data_offsets: offsets } = (entry ?? {}) as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    if (typeof dtype !== 'string' || !(dtype in SIZES)) throw new SafetensorsError(`tensor "${name}": unsupported dtype ${String(dtype)}`);
    if (!Array.isArray(shape) || shape.length > 8 || !shape.every((d) => Number.isSafeInteger(d) && d >= 0)) {
      throw new SafetensorsError(`tensor "${name}": shape must be a list of non-negative integers`);
    }
    if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every((o) => Number.isSafeInteger(o) && o >= 0)) {
      throw new SafetensorsError(`tensor "${name}": data_offsets must be two non-negative integers`);
    }
    const [begin, end] = offsets as [number, number];
    const elements = (shape as number[]).reduce((a, b) => a * b, 1);
    const size = SIZES[dtype as SafetensorsDtype];
    if (end < begin || end > dataLength || end - begin !== elements * size) {
      throw new SafetensorsError(`tensor "${name}": bytes ${begin}..${end} do not hold ${elements} × ${dtype} within the file`);
    }
    if (ranges.some(([b, e]) => begin < e && b < end)) throw new SafetensorsError(`tensor "${name}" overlaps another tensor`);
    ranges.push([begin, end]);
    tensors.set(name, { dtype: dtype as SafetensorsDtype, shape: shape as number[], bytes: new Uint8Array(buffer, dataStart + begin, end - begin) });
  }
  return { tensors, metadata };
}

/** Every platform that runs threadline is little-endian, as safetensors is; checked once rather than assumed. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
let halfTable: Float32Array | null = null;

/** A tensor's values as float32 (integers converted exactly where float32 can hold them). */
export function toFloat32(tensor: Tensor): Float32Array {
  const { bytes, dtype } = tensor;
  const n = bytes.byteLength / SIZES[dtype];
  const aligned = (size: number) => LITTLE_ENDIAN && bytes.byteOffset % size === 0;
  if (dtype === 'I8') return Float32Array.from(new Int8Array(bytes.buffer, bytes.byteOffset, n));
  if (dtype === 'U8') return Float32Array.from(bytes);
  if (dtype === 'F32' && aligned(4)) return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  if (dtype === 'F16' && aligned(2)) {
    // One lookup per value: all 65,536 halves decoded once (256 KB), far faster than decoding bits per value.
    halfTable ??= Float32Array.from({ length: 65536 }, (_, bits) => halfToFloat(bits));
    const halves = new Uint16Array(bytes.buffer, bytes.byteOffset, n);
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) out[i] = halfTable[halves[i] ?? 0] ?? 0;
    return out;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float32Array(n);
  switch (dtype) {
    case 'F32': for (let i = 0; i < n; i++) out[i] = view.getFloat32(i * 4, true); break;
    case 'F16': for (let i = 0; i < n; i++) out[i] = halfToFloat(view.getUint16(i * 2, true)); break;
    case 'U16': for (let i = 0; i < n; i++) out[i] = view.getUint16(i * 2, true); break;
    case 'I32': for (let i = 0; i < n; i++) out[i] = view.getInt32(i * 4, true); break;
    case 'I64': for (let i = 0; i < n; i++) out[i] = Number(view.getBigInt64(i * 8, true)); break;
  }
  return out;
}

/** IEEE 754 half → float; exact for every half value, subnormals and infinities included. */
export function halfToFloat(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 0x1f) return fraction ? NaN : sign * Infinity;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

/** Writes a safetensors file (used by the model build and by tests that make hostile or small models). */
export function writeSafetensors(tensors: Record<string, { dtype: SafetensorsDtype; shape: number[]; bytes: Uint8Array }>, metadata?: Record<string, string>): Uint8Array {
  const header: Record<string, unknown> = metadata ? { __metadata__: metadata } : {};
  let offset = 0;
  for (const [name, t] of Object.entries(tensors)) {
    header[name] = { dtype: t.dtype, shape: t.shape, data_offsets: [offset, offset + t.bytes.byteLength] };
    offset += t.bytes.byteLength;
  }
  let json = JSON.stringify(header);
  // Pad the header with spaces so the data starts 8-byte aligned, as the reference writer does.
  json += ' '.repeat((8 - ((8 + new TextEncoder().encode(json).length) % 8)) % 8);
  const headerBytes = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + headerBytes.length + offset);
  new DataView(out.buffer).setUint32(0, headerBytes.length, true);
  out.set(headerBytes, 8);
  let at = 8 + headerBytes.length;
  for (const t of Object.values(tensors)) { out.set(t.bytes, at); at += t.bytes.byteLength; }
  return out;
}
