/** Small numeric helpers shared by the index, the scans and their tests. */

/**
 * Σ v[i]² over [offset, offset + length), in doubles: not finite exactly when a value is not (squares of
 * finite float32 values cannot overflow a double). Four sums keep the additions independent (one sum waits
 * on each add); a hydrate runs this over every stored value, 38 million for 100k × 384.
 */
export function sumOfSquares(v: Float32Array, offset: number, length: number): number {
  const end = offset + length;
  let a = 0, b = 0, c = 0, d = 0;
  let i = offset;
  for (; i + 4 <= end; i += 4) {
    const x = v[i] as number, y = v[i + 1] as number, z = v[i + 2] as number, w = v[i + 3] as number;
    a += x * x; b += y * y; c += z * z; d += w * w;
  }
  for (; i < end; i++) a += (v[i] as number) * (v[i] as number);
  return a + b + c + d;
}

/** A sum of squares (sumOfSquares) of a row that is unit length within float rounding. */
export function isUnitSum(sum: number): boolean {
  return Math.abs(sum - 1) < 1e-5;
}

/** Scales `v` in place to unit length; a zero vector stays zero (and one with a value that is not finite becomes zero). Returns v. */
export function normalizeInPlace(v: Float32Array, offset = 0, length = v.length - offset): Float32Array {
  const sum = sumOfSquares(v, offset, length);
  if (sum === 0 || !Number.isFinite(sum)) {
    if (!Number.isFinite(sum)) v.fill(0, offset, offset + length);
    return v;
  }
  const inv = 1 / Math.sqrt(sum);
  for (let i = offset; i < offset + length; i++) v[i] = (v[i] ?? 0) * inv;
  return v;
}

/** Dot product of `q` with row `row` of a packed matrix of width q.length (the row stride; padding is zero). */
export function dotRow(q: Float32Array, data: Float32Array | Int8Array, row: number): number {
  const dims = q.length;
  const base = row * dims;
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  let d = 0;
  // Four accumulators let the JIT keep independent chains in flight.
  for (; d + 3 < dims; d += 4) {
    s0 += (q[d] as number) * (data[base + d] as number);
    s1 += (q[d + 1] as number) * (data[base + d + 1] as number);
    s2 += (q[d + 2] as number) * (data[base + d + 2] as number);
    s3 += (q[d + 3] as number) * (data[base + d + 3] as number);
  }
  for (; d < dims; d++) s0 += (q[d] as number) * (data[base + d] as number);
  return s0 + s1 + s2 + s3;
}
