/**
 * threadline's build-time CLI (the package's `threadline` bin, built to dist/cli/threadline.js).
 * See USAGE; every command prints what it wrote and how big it is.
 */
import { cpSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EMBEDDER_DTYPES, isEmbedderDtype } from '../embedding/embedder-options';
import { OFFLINE_MODEL_FILES, OFFLINE_MODEL_ID } from '../embedding/offline-model';
import { ORT_FILES } from '../embedding/ort-assets';
import { deviceNotes, indexFiles } from './index-files';
import { baseUrlProblem } from './page-meta';
import { siteFiles } from './site-files';

const USAGE = `usage:
  threadline index <folder, file or quoted glob…> -o <file.tlix> [options]
      Chunks and embeds .md, .txt, .html, .pdf and .docx files with the same code and
      model the browser uses, into one prebuilt index file (a page then calls
      tl.load('/site.tlix') or sets <threadline-chat index="/site.tlix">). PDF passages
      are cited with their page; a PDF or Word file that cannot be read (encrypted,
      no text layer, damaged) is skipped with a warning.
      --model <folder or hub id>  embedding model (default: the offline model)
      --dtype <precision>         a transformer model's weights: auto (default;
                                  fp32 here, q8 in a browser without WebGPU), fp32,
                                  q8, fp16, …; a page then sets the same
                                  (embedder: { dtype }), as the index records it
      --device <cpu|webgpu>       where a transformer model runs (default cpu);
                                  webgpu embeds on a GPU (Vulkan on Linux, Metal
                                  on macOS, D3D12 on Windows)
      --base-url <url>            link citations to the built pages: guide/install.md
                                  becomes <url>/guide/install.html (an absolute http(s)
                                  URL, or a path from the site's root such as /docs/)
      --page-ext <ext>            page extension for --base-url (default .html; "" for clean URLs)
  threadline element <folder> [--with-llm] [--with-transformers]
      Copies <threadline-chat> (threadline-chat.js, its chunks and worker, the offline
      model) into a site's folder. --with-llm adds web-llm (about 6 MB) for llm="auto";
      --with-transformers adds transformers.js and onnxruntime-web's WASM (needs
      onnxruntime-web installed) for transformer embedding models.
  threadline model <folder>
      Copies just the offline embedding model into <folder>/threadline-glove-30k/
      (config.json, tokenizer.json, tokenizer_config.json, model.safetensors), for
      setups that serve it themselves. Keep the folder's name: it is the model's
      identity in every index built with it.`;

class UsageError extends Error {}

/** A folder the command writes into; a file in its place is said so up front (mkdir's EEXIST and ENOTDIR say it badly). */
function folderTarget(target: string, command: string): void {
  const stat = statSync(target, { throwIfNoEntry: false });
  if (stat && !stat.isDirectory()) throw new UsageError(`${command} writes into a folder, and ${target} is a file`);
}

const here = dirname(fileURLToPath(import.meta.url));

/** The first of these that exists: the installed package's dist/ (from dist/cli) or the repository's build (tsx). */
function locate(candidates: string[], what: string): string {
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error(`${what} not found (looked in ${candidates.join(', ')}); run \`npm run build\` in threadline's folder`);
  return found;
}

const distDir = () => dirname(locate([resolve(here, '../threadline-chat.js'), resolve(here, '../../dist/threadline-chat.js')], 'The built element'));
const offlineModelDir = () => locate([resolve(here, `../${OFFLINE_MODEL_ID}`), resolve(here, `../../.models/${OFFLINE_MODEL_ID}`)], 'The offline model');

function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(2)} MB`;
}

function parseOptions(args: string[], flags: readonly string[], valued: readonly string[]): { positional: string[]; values: Map<string, string>; set: Set<string> } {
  const positional: string[] = [];
  const values = new Map<string, string>();
  const set = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    if (valued.includes(a)) {
      const value = args[++i];
      if (value === undefined) throw new UsageError(`${a} needs a value`);
      values.set(a, value);
    } else if (flags.includes(a)) set.add(a);
    else if (a.startsWith('-') && a !== '-') throw new UsageError(`unknown option ${a}`);
    else positional.push(a);
  }
  return { positional, values, set };
}

async function index(args: string[]): Promise<void> {
  const { positional: inputs, values } = parseOptions(args, [], ['-o', '--out', '--model', '--dtype', '--device', '--base-url', '--page-ext']);
  const out = values.get('-o') ?? values.get('--out');
  if (!out || inputs.length === 0) throw new UsageError('index needs inputs and -o <file.tlix>');
  const baseUrl = values.get('--base-url');
  const problem = baseUrl === undefined ? null : baseUrlProblem(baseUrl);
  if (problem) throw new UsageError(`--base-url ${problem}`);
  const dtype = values.get('--dtype');
  if (dtype !== undefined && !isEmbedderDtype(dtype)) throw new UsageError(`--dtype must be one of ${EMBEDDER_DTYPES.join(', ')}`);
  // Said before the documents are read and embedded, not after, as the write's EISDIR.
  if (statSync(out, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`-o ${out} is a folder; name the index file (${join(out, 'site.tlix')})`);
  const device = values.get('--device');
  if (device !== undefined && device !== 'cpu' && device !== 'webgpu') throw new UsageError('--device must be cpu or webgpu');
  const started = performance.now();
  const pageExt = values.get('--page-ext');
  const built = await indexFiles(inputs, {
    model: values.get('--model') ?? `${offlineModelDir()}/`, ...(dtype ? { dtype } : {}), ...(device ? { device } : {}),
    ...(baseUrl !== undefined ? { baseUrl } : {}), ...(pageExt !== undefined ? { pageExt } : {}),
    onSkipped: (file, reason) => console.warn(`skipped ${file}: ${reason}`),
    onWarning: (file, message) => console.warn(`warning: ${file}: ${message}`),
  });
  for (const note of deviceNotes({ ...(device ? { device } : {}), ...(dtype ? { dtype } : {}) }, built, (name, value) => `--${name} ${value}`)) console.warn(note);
  mkdirSync(dirname(resolve(out)), { recursive: true });
  writeFileSync(out, built.bytes);
  console.log(`${out}: ${built.docs} documents, ${megabytes(built.bytes.length)}, model ${built.modelId}, ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

function ortDist(): string {
  try {
    const require = createRequire(join(process.cwd(), 'package.json'));
    return dirname(require.resolve('onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm'));
  } catch {
    throw new Error('--with-transformers needs onnxruntime-web installed next to threadline: npm install onnxruntime-web (its WASM runtime is not part of threadline\'s package)');
  }
}

function element(args: string[]): void {
  const { positional, set } = parseOptions(args, ['--with-llm', '--with-transformers'], []);
  const [target, ...extra] = positional;
  if (!target || extra.length) throw new UsageError('element needs exactly one target folder');
  folderTarget(target, 'element');
  const dist = distDir();
  const files = siteFiles(dist, 'threadline-chat.js', { llm: set.has('--with-llm'), transformers: set.has('--with-transformers') });
  mkdirSync(target, { recursive: true });
  let bytes = 0;
  for (const file of files) {
    mkdirSync(dirname(join(target, file)), { recursive: true });
    cpSync(join(dist, file), join(target, file));
    bytes += statSync(join(dist, file)).size;
  }
  // The notices of the bundled code travel with it (dist/THIRD_PARTY_LICENSES.txt, written by the build).
  if (existsSync(join(dist, 'THIRD_PARTY_LICENSES.txt'))) cpSync(join(dist, 'THIRD_PARTY_LICENSES.txt'), join(target, 'THIRD_PARTY_LICENSES.txt'));
  if (set.has('--with-transformers')) {
    // onnxruntime-web loads these from ./ort/ next to the retrieval worker.
    const ort = ortDist();
    mkdirSync(join(target, 'ort'), { recursive: true });
    for (const file of ORT_FILES) { cpSync(join(ort, file), join(target, 'ort', file)); bytes += statSync(join(ort, file)).size; }
  }
  console.log(`${target}: <threadline-chat> copied, ${files.length} files, ${megabytes(bytes)}${set.has('--with-llm') ? '' : ' (without web-llm: llm="auto" answers extractively; add --with-llm)'}. Serve the folder with the site and load threadline-chat.js from it: <script type="module" src="…/threadline-chat.js"></script>`);
}

function model(args: string[]): void {
  const { positional } = parseOptions(args, [], []);
  const [target, ...extra] = positional;
  if (!target || extra.length) throw new UsageError('model needs exactly one target folder');
  folderTarget(target, 'model');
  const source = offlineModelDir();
  const folder = join(target, OFFLINE_MODEL_ID);
  let bytes = 0;
  mkdirSync(folder, { recursive: true });
  for (const file of OFFLINE_MODEL_FILES) {
    cpSync(join(source, file), join(folder, file));
    bytes += statSync(join(source, file)).size;
  }
  console.log(`${folder}: the offline model copied (${megabytes(bytes)}). Serve it and pass embedder: { model: '<its URL>/' } (keep the folder's name: it is the model's identity).`);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (rest.includes('--help') || rest.includes('-h')) console.log(USAGE);
  else if (command === 'index') await index(rest);
  else if (command === 'element') element(rest);
  else if (command === 'model') model(rest);
  else if (command === '--help' || command === '-h' || command === 'help') console.log(USAGE);
  else throw new UsageError(command ? `unknown command ${command}` : 'no command');
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof UsageError ? `${error.message}\n${USAGE}` : error instanceof Error ? error.message : String(error));
  process.exit(error instanceof UsageError ? 2 : 1);
});
