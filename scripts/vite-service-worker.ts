/**
 * Builds demo/sw.ts to sw.js and, once every file of the build is written
 * (workers, WASM runtime and public files included), prepends the precache
 * list and a version derived from the file names and sizes.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

export function serviceWorker(source = resolve(import.meta.dirname, '../demo/sw.ts')): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'threadline-service-worker',
    apply: 'build',
    configResolved(resolved) { config = resolved; },
    buildStart() {
      this.emitFile({ type: 'chunk', id: source, fileName: 'sw.js' });
    },
    closeBundle() {
      const out = config.build.outDir;
      const swPath = join(out, 'sw.js');
      const files = walk(out).filter((p) => p !== swPath).map((p) => relative(out, p).split('\\').join('/')).sort();
      const hash = createHash('sha256');
      for (const f of files) hash.update(`${f}:${statSync(join(out, f)).size}\n`);
      const precache = { version: hash.digest('hex').slice(0, 16), files: [...files.filter((f) => f !== 'index.html').map((f) => `./${f}`), './index.html'] };
      writeFileSync(swPath, `const __PRECACHE__ = ${JSON.stringify(precache)};\n${readFileSync(swPath, 'utf8')}`);
    },
  };
}
