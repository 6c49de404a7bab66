/**
 * Source files → a prebuilt index file: what `threadline index` and the
 * `threadline/vite` plugin share. Markdown, text and HTML files, titled and
 * linked as the pages built from them (page-meta.ts); PDF and Word files,
 * linked as themselves (a site serves them as they are) and cited with their
 * page; chunked and embedded with the code and model the browser uses.
 */
import { readFileSync, statSync } from 'node:fs';
import { extname, relative, resolve } from 'node:path';
import { BINARY_FORMATS, type DocumentFormat, type ThreadlineDocument } from '../document';
import type { EmbedderDevice, EmbedderDtype } from '../embedding/embedder-options';
import { loadEmbedder } from '../embedding/load-embedder';
import { StaticEmbedder } from '../embedding/static-embedder';
import { buildPrebuiltIndex } from '../prebuilt/build';
import { expandInput } from './inputs';
import { readText } from '../ingest/read-text';
import { baseUrlProblem, pageTitle, pageUrl } from './page-meta';

export const FORMATS: Record<string, DocumentFormat> = { '.md': 'markdown', '.markdown': 'markdown', '.txt': 'text', '.html': 'html', '.htm': 'html', '.pdf': 'pdf', '.docx': 'docx' };

export interface IndexFilesOptions {
  /** Embedding model folder or hub id. */
  model: string;
  /** A transformer model's weights (`'auto'`: fp32 in Node, which a browser on WASM reads as q8). @default 'auto' */
  dtype?: EmbedderDtype;
  /** Where a transformer model runs: the CPU (`'auto'`, `'cpu'`) or a GPU (`'webgpu'`, onnxruntime-node's WebGPU). @default 'auto' */
  device?: EmbedderDevice;
  /** Link citations to the built pages under this URL. */
  baseUrl?: string;
  /** Page extension for baseUrl. @default '.html' */
  pageExt?: string;
  /** Where relative inputs resolve. @default process.cwd() */
  cwd?: string;
  /** Told of each file left out because it cannot be read (a PDF that is a scan; a .md file that is binary). */
  onSkipped?: (file: string, reason: string) => void;
  /** Told of a file read with a caveat (text that is not UTF-8, read as Windows-1252). */
  onWarning?: (file: string, message: string) => void;
}

export async function indexFiles(inputs: readonly string[], options: IndexFilesOptions): Promise<{ bytes: Uint8Array; docs: number; modelId: string; staticModel: boolean }> {
  const cwd = options.cwd ?? process.cwd();
  const problem = options.baseUrl === undefined ? null : baseUrlProblem(options.baseUrl);
  if (problem) throw new Error(`baseUrl ${problem}`);
  const found = [...new Set(inputs.flatMap((input) => expandInput(input, cwd)))].filter((file) => FORMATS[extname(file).toLowerCase()]);
  const single = inputs.length === 1 && !/[*?]/.test(inputs[0] ?? '') ? resolve(cwd, inputs[0] ?? '.') : null;
  const base = single && statSync(single).isDirectory() ? single : cwd;
  let skipped = 0;
  const docs: ThreadlineDocument[] = found.flatMap((file): ThreadlineDocument[] => {
    const path = relative(base, resolve(file)).replaceAll('\\', '/');
    const format = FORMATS[extname(file).toLowerCase()] ?? 'text';
    if (BINARY_FORMATS.has(format)) {
      // Served as they are: the link is the file itself (its own extension, not the page extension).
      return [{ id: path, url: pageUrl(path, options.baseUrl, extname(path)), data: new Uint8Array(readFileSync(file)), format }];
    }
    const read = readText(new Uint8Array(readFileSync(file)), format);
    if ('unreadable' in read) {
      skipped++;
      options.onSkipped?.(path, read.unreadable);
      return [];
    }
    if (read.note) options.onWarning?.(path, read.note);
    return [{ id: path, title: pageTitle(read.text, format, file), url: pageUrl(path, options.baseUrl, options.pageExt ?? '.html'), text: read.text, format }];
  });
  if (!docs.length) throw new Error(skipped ? `no readable documents in ${inputs.join(', ')}` : `no .md, .txt, .html, .pdf or .docx files found in ${inputs.join(', ')}`);
  const embedder = await loadEmbedder({ model: options.model, ...(options.dtype ? { dtype: options.dtype } : {}), ...(options.device ? { device: options.device } : {}) });
  let unreadable = 0;
  const bytes = await buildPrebuiltIndex(docs, embedder, {}, { onUnreadable: (id, error) => { unreadable++; options.onSkipped?.(id, error.message); } });
  // A static model (the offline one, Model2Vec) is plain code on the CPU whatever `device` says.
  return { bytes, docs: docs.length - unreadable, modelId: embedder.modelId, staticModel: embedder instanceof StaticEmbedder };
}

/** Integer-quantized weights, which onnxruntime-node's WebGPU ran slower than the CPU (bench/node-device.ts, an NVIDIA H200: q8 0.41×, fp32 2.6×). */
const QUANTIZED: ReadonlySet<string> = new Set(['q8', 'int8', 'uint8']);

/**
 * What `device: 'webgpu'` did not do as asked, for `threadline index` and the Vite plugin to say (`option` spells the
 * option as the caller takes it): a static model needs no GPU; quantized weights are slower on one.
 */
export function deviceNotes(options: Pick<IndexFilesOptions, 'device' | 'dtype'>, built: { modelId: string; staticModel: boolean }, option: (name: 'device' | 'dtype', value: string) => string): string[] {
  if (options.device !== 'webgpu') return [];
  const gpu = option('device', 'webgpu');
  if (built.staticModel) return [`${gpu}: ${built.modelId} is a static model, embedded in plain code on the CPU (it needs no GPU); it applies to transformer models`];
  if (options.dtype && QUANTIZED.has(options.dtype)) {
    return [`${gpu} with ${option('dtype', options.dtype)}: quantized weights ran slower on WebGPU than on the CPU where measured (q8: 0.41× the CPU on an NVIDIA H200; fp32: 2.6×); build a ${options.dtype} index on the CPU, or use fp32 on the GPU`];
  }
  return [];
}
