/**
 * threadline's build-time CLI (the package's `threadline` bin, built to dist/cli/threadline.js):
 *   threadline index <folder, file or quoted glob…> -o <file.tlix> [--model <folder or hub id>]
 *     chunks and embeds Markdown, text and HTML files with the same code and
 *     model the browser will use (the offline model by default) and writes one
 *     prebuilt index file; a page then calls `tl.load('/site.tlix')`.
 *   threadline element <folder>
 *     copies the standalone <threadline-chat> (script, workers, WASM runtime,
 *     offline model) into a site's folder.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, relative, resolve } from 'node:path';
import { expandInput } from './inputs';
import { fileURLToPath } from 'node:url';
import type { DocumentFormat, ThreadlineDocument } from '../document';
import { loadTransformersEmbedder } from '../embedding/transformers-embedder';
import { OFFLINE_MODEL_ID } from '../embedding/offline-model';
import { buildPrebuiltIndex } from '../prebuilt/build';

const FORMATS: Record<string, DocumentFormat> = { '.md': 'markdown', '.markdown': 'markdown', '.txt': 'text', '.html': 'html', '.htm': 'html' };
const USAGE = `usage:
  threadline index <folder, file or quoted glob…> -o <file.tlix> [--model <folder or hub id>]
  threadline element <folder>`;

class UsageError extends Error {}

const here = dirname(fileURLToPath(import.meta.url));

/**
 * The first of these that exists: the standalone element's copy (installed
 * package: dist/cli → dist/standalone) or the repository's built model (tsx).
 */
function locate(candidates: string[], what: string): string {
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error(`${what} not found (looked in ${candidates.join(', ')}); run \`npm run build\` in threadline's folder`);
  return found;
}

const standaloneDir = () => locate([resolve(here, '../standalone'), resolve(here, '../../dist/standalone')], 'The standalone element build');
const offlineModelDir = () => locate([resolve(here, `../standalone/${OFFLINE_MODEL_ID}`), resolve(here, `../../.models/${OFFLINE_MODEL_ID}`)], 'The offline model');

async function index(args: string[]): Promise<void> {
  const inputs: string[] = [];
  let out: string | undefined;
  let model: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (a === '-o' || a === '--out') out = args[++i];
    else if (a === '--model') model = args[++i];
    else if (a.startsWith('-')) throw new UsageError(`unknown option ${a}`);
    else inputs.push(a);
  }
  if (!out || inputs.length === 0) throw new UsageError('index needs inputs and -o <file.tlix>');
  const found = [...new Set(inputs.flatMap((input) => expandInput(input)))].filter((file) => FORMATS[extname(file).toLowerCase()]);
  const single = inputs.length === 1 && !/[*?]/.test(inputs[0] ?? '') ? resolve(inputs[0] ?? '.') : null;
  const base = single && statSync(single).isDirectory() ? single : process.cwd();
  const docs: ThreadlineDocument[] = found.map((file) => ({
    id: relative(base, resolve(file)), url: relative(base, resolve(file)), text: readFileSync(file, 'utf8'), format: FORMATS[extname(file).toLowerCase()] ?? 'text',
  }));
  if (!docs.length) throw new Error('no .md, .txt or .html files found');
  const started = performance.now();
  const embedder = await loadTransformersEmbedder({ model: model ?? `${offlineModelDir()}/` });
  const bytes = await buildPrebuiltIndex(docs, embedder);
  mkdirSync(dirname(resolve(out)), { recursive: true });
  writeFileSync(out, bytes);
  console.log(`${out}: ${docs.length} documents, ${(bytes.length / 1e6).toFixed(2)} MB, model ${embedder.modelId}, ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

function element(args: string[]): void {
  const [target, ...extra] = args;
  if (!target || extra.length) throw new UsageError('element needs exactly one target folder');
  const source = standaloneDir();
  mkdirSync(target, { recursive: true });
  cpSync(source, target, { recursive: true });
  console.log(`${target}: <threadline-chat> copied (script, workers, WASM runtime, offline model). Serve the folder with the site and load threadline-chat.js from it: <script type="module" src="…/threadline-chat.js"></script>`);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === 'index') await index(rest);
  else if (command === 'element') element(rest);
  else if (command === '--help' || command === '-h' || command === 'help') console.log(USAGE);
  else throw new UsageError(command ? `unknown command ${command}` : 'no command');
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof UsageError ? `${error.message}\n${USAGE}` : error instanceof Error ? error.message : String(error));
  process.exit(error instanceof UsageError ? 2 : 1);
});
