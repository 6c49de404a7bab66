/** Shared helpers for the browser tests: fresh names, a capturable worker, and a store audit. */
import * as Comlink from 'comlink';
import { openDB } from 'idb';
import type { DocRecord, PageRecord, ShardRecord, StoredChunk } from '../../src/storage/schema';
import type { RetrievalPort } from '../../src/worker/protocol';
import { SAMPLE_KB } from '../../demo/sample-kb';

export const sampleDocs = SAMPLE_KB.map((d) => ({ id: d.id, title: d.title, url: d.url, text: d.markdown, format: 'markdown' as const }));

export function freshName(label: string): string {
  return `${label}-${crypto.randomUUID().slice(0, 8)}`;
}

/** A worker factory that remembers the workers it made, so a test can kill one. */
export function capturingWorkers() {
  const made: Worker[] = [];
  return {
    made,
    factory: () => {
      const w = new Worker(new URL('./inspect.worker.ts', import.meta.url), { type: 'module' });
      made.push(w);
      return w;
    },
    /** Reads the worker's in-memory chunk keys through a second comlink wrapper (the test worker's extra method). */
    async memoryKeys(index = made.length - 1): Promise<number[]> {
      const result = await Comlink.wrap<RetrievalPort>(made[index] as Worker).invoke('chunkKeys', [{}], -1);
      if (!result.ok) throw new Error(result.error.message);
      return result.value as number[];
    },
  };
}

export interface StoreAudit {
  docs: DocRecord[];
  /** The chunks the documents list, each with its key. */
  chunks: (StoredChunk & { key: number })[];
  /** Documents whose stored chunks differ from their own chunk list. */
  partialDocs: string[];
  /** Chunk keys listed by more than one document. */
  duplicateChunks: number;
  /** Listed chunks whose shard does not hold their key. */
  danglingVectors: number;
}

/** Reads the stored index directly (bare IndexedDB) and checks its invariants. */
export async function auditStore(name: string): Promise<StoreAudit> {
  // Opening a database that does not exist would create an empty one; a page closed before its
  // first commit legitimately leaves none.
  if (!(await indexedDB.databases()).some((d) => d.name === `threadline:${name}`)) {
    return { docs: [], chunks: [], partialDocs: [], duplicateChunks: 0, danglingVectors: 0 };
  }
  const db = await openDB(`threadline:${name}`);
  const docs = ((await db.getAll('pages')) as PageRecord[]).flatMap((p) => p.docs);
  const shards = new Map(((await db.getAll('shards')) as ShardRecord[]).map((s) => [s.id, s]));
  // A document names the shard its chunk was written to; compaction maps merged shards to their new one.
  const alias = ((await db.get('meta', 'manifest')) as { shardAlias?: Record<number, number> } | undefined)?.shardAlias ?? {};
  db.close();
  const partialDocs = docs.filter((d) => d.chunks.length !== d.chunkKeys.length || d.chunkShards.length !== d.chunkKeys.length || d.chunks.some((c) => c.docId !== d.id)).map((d) => d.id);
  const chunks = docs.flatMap((d) => d.chunkKeys.map((key, i) => ({ ...(d.chunks[i] as StoredChunk), key })));
  const keys = chunks.map((c) => c.key);
  return {
    docs, chunks,
    partialDocs,
    duplicateChunks: keys.length - new Set(keys).size,
    danglingVectors: docs.reduce((n, d) => n + d.chunkKeys.filter((key, i) => !shards.get(alias[d.chunkShards[i] as number] ?? (d.chunkShards[i] as number))?.keys.includes(key)).length, 0),
  };
}

/** Many documents of many short sentences: enough work that an ingest can be interrupted. */
export function bulkDocs(count: number, sentences = 60): { id: string; text: string }[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `bulk-${i}`,
    text: Array.from({ length: sentences }, (_, j) => `Paragraph ${j} of note ${i} covers offline sync, refunds and shipping times.`).join(' '),
  }));
}

export async function within<T>(ms: number, promise: Promise<T>): Promise<{ value?: T; error?: unknown; ms: number }> {
  const started = performance.now();
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms));
  try {
    return { value: await Promise.race([promise, timeout]), ms: performance.now() - started };
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
}

/**
 * Counts every Worker the page constructs (a spare included), and which were
 * terminated: `install()` in beforeEach replaces the global Worker with a
 * recording subclass, `restore()` in afterEach puts it back.
 */
export function workerCensus() {
  const RealWorker = globalThis.Worker;
  const made: { url: string; terminated: boolean }[] = [];
  return {
    made,
    retrieval: () => made.filter((w) => /retrieval\.worker/.test(w.url)),
    install(): void {
      made.length = 0;
      globalThis.Worker = class extends RealWorker {
        private readonly record: { url: string; terminated: boolean };
        constructor(url: string | URL, options?: WorkerOptions) {
          super(url, options);
          this.record = { url: String(url), terminated: false };
          made.push(this.record);
        }
        override terminate(): void {
          this.record.terminated = true;
          super.terminate();
        }
      };
    },
    restore(): void {
      globalThis.Worker = RealWorker;
    },
  };
}
