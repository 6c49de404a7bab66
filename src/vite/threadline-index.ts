/**
 * `threadline/vite`: builds a prebuilt index from the site's own pages when
 * Vite builds the site, and serves it in dev, so a Vite-based site (plain
 * Vite, VitePress, Astro, SvelteKit) gets an index with one line of config:
 *
 *   import { threadlineIndex } from 'threadline/vite';
 *   export default { plugins: [threadlineIndex({ include: 'docs', baseUrl: 'https://example.com/' })] };
 *
 * The page then loads it with `tl.load('/site.tlix')` or `<threadline-chat index="/site.tlix">`.
 * Runs in Node with the same chunking and model as `threadline index`.
 */
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { deviceNotes, indexFiles } from '../cli/index-files';
import { EMBEDDER_DTYPES, isEmbedderDtype, type EmbedderDtype } from '../embedding/embedder-options';
import { baseUrlProblem } from '../cli/page-meta';
import { OFFLINE_MODEL_ID } from '../embedding/offline-model';

export interface ThreadlineIndexOptions {
  /** Folders, files or quoted globs (`docs/**\/*.md`), relative to Vite's root. */
  include: string | readonly string[];
  /** The file's name in the build (and its path in dev). @default 'site.tlix' */
  fileName?: string;
  /** Embedding model folder or hub id. @default the offline model that ships with threadline */
  model?: string;
  /** A transformer model's weights (see `threadline index --dtype`); the page configures the same. @default 'auto' */
  dtype?: EmbedderDtype;
  /** Where a transformer model runs while the index is built (see `threadline index --device`). @default 'cpu' */
  device?: 'cpu' | 'webgpu';
  /** Link citations to the built pages under this URL (see `threadline index --base-url`). */
  baseUrl?: string;
  /** Page extension for baseUrl. @default '.html' */
  pageExt?: string;
}

const here = dirname(fileURLToPath(import.meta.url));

function offlineModel(): string {
  // Installed: dist/cli/vite.js → dist/threadline-glove-30k; in this repository (tsx): src/vite → .models.
  const found = [resolve(here, '..', OFFLINE_MODEL_ID), resolve(here, '../../.models', OFFLINE_MODEL_ID)].find((p) => existsSync(p));
  if (!found) throw new Error(`threadline/vite: the offline model is missing next to ${here}; reinstall threadline`);
  return `${found}/`;
}

/**
 * The options as a vite.config.js may write them (untyped): a wrong one is said when Vite loads the config, by
 * name, not as a TypeError from inside the plugin or a failure after the site is built.
 */
function checked(options: ThreadlineIndexOptions): { include: string[]; fileName: string } {
  const wrong = (what: string) => new Error(`threadline/vite: ${what}`);
  if (typeof options !== 'object' || options === null) throw wrong("threadlineIndex takes options: threadlineIndex({ include: 'docs' })");
  const include = typeof options.include === 'string' ? [options.include] : Array.isArray(options.include) ? [...(options.include as unknown[])] : null;
  if (!include?.length || !include.every((x): x is string => typeof x === 'string' && x.trim() !== '')) throw wrong('include must name the pages to index: a folder, a file or a quoted glob, or a list of them');
  const fileName = String(options.fileName ?? 'site.tlix').replace(/^\/+/, '');
  if (options.fileName !== undefined && (typeof options.fileName !== 'string' || !fileName || fileName.split('/').some((part) => part === '..' || part === '.' || part === ''))) {
    throw wrong(`fileName must be a path inside the build, such as 'site.tlix' or 'search/site.tlix', got ${JSON.stringify(options.fileName)}`);
  }
  if (options.dtype !== undefined && !isEmbedderDtype(options.dtype)) throw wrong(`dtype must be one of ${EMBEDDER_DTYPES.join(', ')}`);
  if (options.device !== undefined && options.device !== 'cpu' && options.device !== 'webgpu') throw wrong("device must be 'cpu' or 'webgpu'");
  const problem = options.baseUrl === undefined ? null : typeof options.baseUrl === 'string' ? baseUrlProblem(options.baseUrl) : 'must be a string';
  if (problem) throw wrong(`baseUrl ${problem}`);
  return { include, fileName };
}

export function threadlineIndex(options: ThreadlineIndexOptions): Plugin {
  const { include, fileName } = checked(options);
  let root = process.cwd();
  let built: Promise<Uint8Array> | null = null;
  const build = () => (built ??= indexFiles(include, {
    model: options.model ?? offlineModel(), cwd: root, ...(options.dtype ? { dtype: options.dtype } : {}), ...(options.device ? { device: options.device } : {}),
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}), ...(options.pageExt !== undefined ? { pageExt: options.pageExt } : {}),
    // What `threadline index` says of a file it leaves out or reads with a caveat, the build says too.
    onSkipped: (file, reason) => console.warn(`threadline/vite: skipped ${file}: ${reason}`),
    onWarning: (file, message) => console.warn(`threadline/vite: ${file}: ${message}`),
  }).then((r) => {
    // As `threadline index` says it: a static model needs no GPU, and the option must not seem to use one.
    for (const note of deviceNotes(options, r, (name, value) => `${name} '${value}'`)) console.warn(`threadline/vite: ${note}`);
    return r.bytes;
  }).catch((error: unknown) => { built = null; throw error; }));
  return {
    name: 'threadline-index',
    // threadline's workers are ES modules that import chunks of their own. Vite before version 8 builds workers as
    // IIFE scripts unless told otherwise, and fails on those imports ("UMD and IIFE output formats are not supported
    // for code-splitting builds"); Vite 8 inlines them (transformers.js into the retrieval worker). A format the app sets stands.
    // And its dev server's dependency optimizer, before version 8, bundles threadline into .vite/deps without the workers and
    // model files it names beside itself (the retrieval worker 404s, "The file does not exist … in the optimize deps
    // directory"): threadline needs no optimizing (it is ES modules with nothing to pre-bundle), so it is left out.
    config(user) {
      return {
        ...(user.worker?.format === undefined ? { worker: { format: 'es' as const } } : {}),
        optimizeDeps: { exclude: ['threadline'] },
      };
    },
    configResolved(config) {
      root = config.root;
    },
    configureServer(server) {
      // Any change under the root may be a page: build again on the next request.
      server.watcher.on('all', () => { built = null; });
      server.middlewares.use((req, res, next) => {
        if ((req.url ?? '').split('?')[0] !== `/${fileName}`) return next();
        build().then((bytes) => {
          res.setHeader('Content-Type', 'application/octet-stream');
          res.end(bytes);
        }, next);
      });
    },
    async generateBundle() {
      this.emitFile({ type: 'asset', fileName, source: await build() });
    },
  };
}
