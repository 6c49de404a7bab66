/**
 * `threadline/build`: what runs at build time or in Node rather than in a
 * visitor's page: the embedder loader (the same models the worker runs), the
 * document parsers (PDF and Word through `readInProcess`), and the prebuilt
 * index format and builder (what `threadline index` uses).
 */
export { loadEmbedder, embedderIdentity } from './embedding/load-embedder';
export type { EmbedderRuntime } from './embedding/load-embedder';
export { parseDocument } from './ingest/parse';
export { parseHtml } from './ingest/html';
export { parseMarkdown } from './ingest/markdown';
export { parsePlainText } from './ingest/plain-text';
export { readInProcess } from './ingest/binary-reader';
export type { BinaryReader } from './ingest/binary-reader';
export { buildPrebuiltIndex } from './prebuilt/build';
export type { BuildOptions } from './prebuilt/build';
export { decodePrebuilt, encodePrebuilt, readPrebuiltHeader, PREBUILT_FORMAT } from './prebuilt/format';
export type { PrebuiltChunk, PrebuiltDoc, PrebuiltHeader, PrebuiltIndex } from './prebuilt/format';
