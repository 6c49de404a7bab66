/**
 * `npm run eval`'s engine: the offline model (or `model`) and an in-process
 * index over the set's passages; sets without a corpus use the vocabulary prior.
 */
import { resolve } from 'node:path';
import { specificityFrom } from '../../src/chat/specificity';
import { loadEmbedder } from '../../src/embedding/load-embedder';
import { hedgedFusion } from '../../src/retrieval/fusion';
import { contentWords } from '../../src/text/tokens';
import { MemoryIndex, type SearchMode } from '../../src/retrieval/memory-index';
import { runEval, type EvalEngine, type EvalOptions, type EvalReport } from './core';
import { loadEvalSet } from './data';
import { vocabularyPrior } from './prior';
import { contexts, type StrategyQuery } from './strategies';

export { ALL_STRATEGIES, runEval } from './core';
export type { EvalEngine, EvalOptions, EvalReport, KindKey, Strategy, StrategyReport, TurnRow } from './core';

export async function evaluate(options: EvalOptions): Promise<EvalReport> {
  const retrieval = options.retrieval ?? 'hybrid';
  const modelPath = options.model ?? resolve(import.meta.dirname, '../../.models/threadline-glove-30k') + '/';
  const set = loadEvalSet(options.data);
  const embedder = await loadEmbedder({ model: modelPath });
  let engine: EvalEngine;
  if (set.passages) {
    const passages = set.passages;
    const index = new MemoryIndex(embedder.dims);
    index.addChunks(passages.map((p, key) => ({ key, docId: p.id, text: p.text, context: p.text, headingPath: [], start: 0, end: p.text.length })), await embedder.embed(passages.map((p) => p.text)));
    const words = [...new Set(contexts(set.conversations).flatMap((c) => contentWords(c.turn.user)))];
    engine = {
      model: embedder.modelId,
      specificity: specificityFrom(index.termStats(words)),
      rank: async (qs, depth) => {
        const vectors = retrieval === 'lexical' ? null : await embedder.embed(qs.map((q) => q.query.text));
        const hedges = qs.map((q) => q.query.hedge);
        const hedgeVectors = retrieval === 'lexical' || !hedges.some(Boolean) ? null : await embedder.embed(hedges.map((h) => h ?? ''));
        return qs.map((q, i) => rankQuery(index, q, i, vectors, hedgeVectors, embedder.dims, depth, retrieval).map((key) => passages[key]?.id ?? ''));
      },
    };
  } else {
    engine = { model: embedder.modelId, specificity: vocabularyPrior(modelPath), rank: () => Promise.resolve([]) };
  }
  return runEval(set, engine, options);
}

function rankQuery(index: MemoryIndex, q: StrategyQuery, i: number, vectors: Float32Array | null, hedgeVectors: Float32Array | null, dims: number, depth: number, mode: SearchMode): number[] {
  const row = (v: Float32Array | null) => (v ? v.subarray(i * dims, (i + 1) * dims) : null);
  const main = index.search(q.query, row(vectors), { k: depth, mode });
  if (!q.query.hedge) return main.map((h) => h.chunkKey);
  const plain = index.search({ text: q.query.hedge }, row(hedgeVectors), { k: depth, mode });
  const keyed = (hits: typeof main) => hits.map((h) => ({ key: h.chunkKey, score: h.score }));
  return hedgedFusion(keyed(main), keyed(plain), depth).map((h) => h.key);
}


