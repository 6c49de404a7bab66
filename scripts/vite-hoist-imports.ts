/**
 * Rollup's `hoistTransitiveImports`, which rolldown does not implement: every
 * entry chunk also imports, for loading only, each chunk it reaches through
 * static imports, so a browser requests them all at once instead of one level
 * of the import graph after another. The standalone <threadline-chat> went
 * four requests deep (entry, element, library, helpers) before its worker
 * could start. Evaluation order is unchanged: a module still runs after its
 * own dependencies, and these chunks are dependencies of the entry anyway.
 */
import type { OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';

/** The chunks `fileName` reaches through static imports, nearest first. */
export function transitiveImports(bundle: Record<string, { type: string; imports?: string[] }>, fileName: string): string[] {
  const seen = new Set<string>();
  const queue = [...(bundle[fileName]?.imports ?? [])];
  while (queue.length) {
    const next = queue.shift() as string;
    if (seen.has(next) || next === fileName) continue;
    seen.add(next);
    queue.push(...(bundle[next]?.imports ?? []));
  }
  return [...seen];
}

export interface HoistOptions {
  /**
   * Entries (by name) that import their real code dynamically at once (the
   * standalone element starts its worker first): they also start fetching
   * every chunk that code reaches, in parallel with it, instead of one level
   * after it. Other entries' dynamic imports stay lazy.
   */
  preloadDynamic?: readonly string[];
}

export function hoistTransitiveImports(options: HoistOptions = {}): Plugin {
  return {
    name: 'threadline-hoist-transitive-imports',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = bundle as Record<string, OutputChunk>;
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !chunk.isEntry) continue;
        const direct = new Set(chunk.imports);
        const hoisted = transitiveImports(chunks, chunk.fileName).filter((file) => !direct.has(file));
        const preloaded = options.preloadDynamic?.includes(chunk.name)
          ? [...new Set(chunk.dynamicImports.flatMap((file) => [file, ...transitiveImports(chunks, file)]))].filter((file) => file !== chunk.fileName && !direct.has(file) && !hoisted.includes(file))
          : [];
        if (!hoisted.length && !preloaded.length) continue;
        const dir = chunk.fileName.includes('/') ? chunk.fileName.slice(0, chunk.fileName.lastIndexOf('/') + 1) : '';
        // Every chunk of this build sits in one folder (assetsDir ''), so a sibling path is enough; anything else is left alone.
        if (![...hoisted, ...preloaded].every((file) => file.startsWith(dir) && !file.slice(dir.length).includes('/'))) continue;
        const path = (file: string) => JSON.stringify(`./${file.slice(dir.length)}`);
        // A preload that fails is reported by the import that needs it; this one only starts the fetch.
        chunk.code = hoisted.map((file) => `import ${path(file)};\n`).join('') + preloaded.map((file) => `import(${path(file)}).catch(() => {});\n`).join('') + chunk.code;
      }
    },
  };
}
