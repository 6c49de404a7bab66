/**
 * The project-built offline embedding model (scripts/build-offline-model.ts):
 * SIF-weighted GloVe, 100 dimensions, an int8 table with per-row scales
 * (3 MB) and a word-level tokenizer. It ships inside the package and needs no
 * network beyond the page's own origin; it is the default when nothing else
 * is configured.
 */
import type { ModelFiles } from './model-files';

export const OFFLINE_MODEL_ID = 'threadline-glove-30k';
export const OFFLINE_MODEL_DIMS = 100;
/** Where the demo, the tests and `threadline model` put the folder by default. */
export const OFFLINE_MODEL_PATH = `/${OFFLINE_MODEL_ID}/`;
/** The model's folder, as Model2Vec lays it out: what the package ships and `threadline model` copies (pages load only the table). */
export const OFFLINE_MODEL_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'model.safetensors'] as const;
/**
 * The manifest identity of vectors made by the offline model: its table is int8, and `-v2` since it reads a
 * camelCase name it lacks as its words (compound-words.ts), which changed the vectors of such texts.
 */
export const OFFLINE_MODEL_IDENTITY = `${OFFLINE_MODEL_ID}#int8-v2`;

/**
 * Identities of vectors that earlier releases' offline model made (`#fp32`: before its table was int8;
 * `#int8`: before it split camelCase names). An index holding them is re-embedded with today's model when
 * it is opened, as `onModelMismatch: 'rebuild'` would do: nobody chose those vectors over today's, and the
 * offline model re-embeds thousands of chunks a second. A prebuilt file holding them is refused with a
 * message saying to build it again.
 */
export const SUPERSEDED_OFFLINE_IDENTITIES: readonly string[] = [`${OFFLINE_MODEL_ID}#fp32`, `${OFFLINE_MODEL_ID}#int8`];

/** Whether `stored` vectors are an earlier release's offline model's, which today's offline model (`configured`) replaces. */
export function supersededBy(stored: string | undefined, configured: string): boolean {
  return configured === OFFLINE_MODEL_IDENTITY && stored !== undefined && SUPERSEDED_OFFLINE_IDENTITIES.includes(stored);
}

/**
 * The model's file next to this module. The URL is a literal
 * `new URL('…', import.meta.url)`, the pattern Vite, webpack, Rollup and
 * Parcel follow, so an app that bundles threadline gets the file copied
 * into its build with no configuration. Only model.safetensors is named: it
 * carries the folder's three JSON files and the vocabulary
 * (embedded-files.ts, vocab-table.ts), so pages load one file and bundlers
 * copy one. (In this repository the folder is a link to `.models/`, built by
 * `npm run model`.)
 */
export function bundledOfflineModel(): ModelFiles {
  return {
    label: OFFLINE_MODEL_ID,
    weights: new URL('./threadline-glove-30k/model.safetensors', import.meta.url).href,
    hint: 'The offline model ships with threadline and a bundler that follows new URL(…, import.meta.url) copies it; without one, copy it with `npx threadline model <folder>`, serve that folder, and pass embedder: { model: "<its URL>" }.',
  };
}
