/**
 * threadline's build-time CLI.
 *   npm run threadline -- index <folder or file…> -o <file.tlix> [--model <folder or hub id>]
 * Chunks and embeds Markdown, text and HTML files with the same code and model
 * the browser will use (the offline model by default) and writes one prebuilt
 * index file; a page then calls `tl.load('/site.tlix')`.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, relative, resolve } from 'node:path';
import type { DocumentFormat, ThreadlineDocument } from '../src/document';
import { loadTransformersEmbedder } from '../src/embedding/transformers-embedder';
import { buildPrebuiltIndex } from '../src/prebuilt/build';

const FORMATS: Record<string, DocumentFormat> = { '.md': 'markdown', '.markdown': 'markdown', '.txt': 'text', '.html': 'html', '.htm': 'html' };
const USAGE = 'usage: npm run threadline -- index <folder or file…> -o <file.tlix> [--model <folder or hub id>]';

function files(path: string): string[] {
  const stat = statSync(path);
  if (stat.isFile()) return FORMATS[extname(path).toLowerCase()] ? [path] : [];
  return readdirSync(path).sort().flatMap((name) => (name.startsWith('.') || name === 'node_modules' ? [] : files(join(path, name))));
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command !== 'index') throw new Error(USAGE);
  const inputs: string[] = [];
  let out: string | undefined;
  let model = resolve(import.meta.dirname, '../.models/threadline-glove-30k') + '/';
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i] ?? '';
    if (a === '-o' || a === '--out') out = rest[++i];
    else if (a === '--model') model = rest[++i] ?? model;
    else inputs.push(a);
  }
  if (!out || inputs.length === 0) throw new Error(USAGE);
  const base = inputs.length === 1 && statSync(inputs[0] ?? '.').isDirectory() ? resolve(inputs[0] ?? '.') : process.cwd();
  const docs: ThreadlineDocument[] = inputs.flatMap(files).map((file) => ({
    id: relative(base, resolve(file)), url: relative(base, resolve(file)), text: readFileSync(file, 'utf8'), format: FORMATS[extname(file).toLowerCase()] ?? 'text',
  }));
  if (!docs.length) throw new Error('no .md, .txt or .html files found');
  const started = performance.now();
  const embedder = await loadTransformersEmbedder({ model });
  const bytes = await buildPrebuiltIndex(docs, embedder);
  writeFileSync(out, bytes);
  console.log(`${out}: ${docs.length} documents, ${(bytes.length / 1e6).toFixed(2)} MB, model ${embedder.modelId}, ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
