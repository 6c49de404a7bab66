/**
 * Gives one import-free module a copy of its own inside the chunk of the
 * module that imports it, instead of a shared chunk.
 *
 * The standalone element's entry starts its retrieval worker before anything
 * else is fetched (src/client/prestart.ts), and must start it the way a page
 * that enforces Trusted Types allows (src/client/trusted-worker.ts). Every
 * worker of the library is made with that module too, so the bundler would
 * put it in a chunk of its own, which the entry would then import statically:
 * one more round trip before the entry runs, its chunk preloads and the
 * worker's start included. Imported by `importer` under a query, the module
 * is a different module to the bundler and lands in the entry's chunk. It
 * must import nothing and hold no state of its own (its state lives under
 * registered symbols), since the copy runs beside the original.
 */
import type { Plugin } from 'vite';

const QUERY = '?threadline-entry-copy';

export function entryCopy(importer: string, copied: string): Plugin {
  return {
    name: 'threadline-entry-copy',
    enforce: 'pre',
    async resolveId(source, from, options) {
      if (from !== importer) return null;
      const resolved = await this.resolve(source, from, { ...options, skipSelf: true });
      return resolved?.id === copied ? `${copied}${QUERY}` : null;
    },
  };
}
