/**
 * A gate for progress events a long loop would otherwise post at every step:
 * open at most once every `ms` milliseconds, counting from `since` (0, the
 * default, opens at the first call; `performance.now()` waits `ms` first).
 */
export function every(ms: number, since = 0): () => boolean {
  let last = since;
  return () => {
    const now = performance.now();
    if (now - last < ms) return false;
    last = now;
    return true;
  };
}
