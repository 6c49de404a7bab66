/**
 * What `threadline element` copies: the files a page needs to run
 * threadline-chat.js, found by following the built code's own references
 * (static and dynamic imports, workers and assets named with
 * `new URL('./…', import.meta.url)`) from that script, so nothing unused ships.
 * web-llm (about 6 MB, in the LLM worker's chunks) and transformers.js are left
 * out unless asked for: the element answers without them, and says so. The
 * PDF and Word readers are always left out: the element loads a prebuilt
 * index and adds no files (`threadline index` reads PDF and Word at build time).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';

export interface SiteFileOptions {
  /** WebGPU answers (`llm="auto"`): the LLM worker and web-llm's chunk. */
  llm?: boolean;
  /** Transformer embedding models: transformers.js and onnxruntime-web's JavaScript. */
  transformers?: boolean;
}

const REFERENCE = /(?:\bfrom\s*|\bimport\s*\(\s*|\bnew\s+URL\s*\(\s*)(["'`])(\.\/[^"'`$]+)\1/g;

export function siteFiles(dist: string, entry: string, options: SiteFileOptions = {}): string[] {
  const skip = (file: string) =>
    (!options.llm && /^(web-llm|llm\.worker)-/.test(file)) ||
    (!options.transformers && /^transformers(-embedder)?-/.test(file)) ||
    /^(pdf|pdf\.worker|docx|documents\.worker)-/.test(file);
  const found = new Set<string>();
  const queue = [entry];
  while (queue.length) {
    const file = queue.pop() ?? '';
    if (found.has(file) || skip(file)) continue;
    const path = join(dist, file);
    if (!existsSync(path)) throw new Error(`${file} is referenced by the build but missing from ${dist}; run \`npm run build\` again`);
    found.add(file);
    if (!file.endsWith('.js')) continue;
    const base = file.includes('/') ? file.slice(0, file.lastIndexOf('/') + 1) : '';
    for (const match of readFileSync(path, 'utf8').matchAll(REFERENCE)) {
      const target = normalize(base + (match[2] ?? '').slice(2)).replaceAll('\\', '/');
      if (!target.startsWith('..')) queue.push(target);
    }
  }
  return [...found].sort();
}
