/**
 * Minimal demo: embeds the sample knowledge base's sections in the retrieval
 * worker with the offline model and ranks them by cosine similarity.
 */
import * as Comlink from 'comlink';
import type { RetrievalService } from '../src/worker/retrieval-service';
import { SAMPLE_KB } from './sample-kb';

interface Passage { title: string; heading: string; text: string }

const $ = <T extends HTMLElement>(sel: string) => document.querySelector<T>(sel)!;
const status = $<HTMLParagraphElement>('#status');
const form = $<HTMLFormElement>('#search');
const input = $<HTMLInputElement>('#q');
const results = $<HTMLOListElement>('#results');

function sections(): Passage[] {
  return SAMPLE_KB.flatMap((doc) => doc.markdown.split(/^## /m).slice(1).map((block) => {
    const [heading = '', ...body] = block.split('\n');
    return { title: doc.title, heading, text: body.join(' ').trim() };
  }));
}

async function main(): Promise<void> {
  const worker = new Worker(new URL('../workers/retrieval.worker.ts', import.meta.url), { type: 'module' });
  const service = Comlink.wrap<RetrievalService>(worker);
  const started = performance.now();
  const { dims } = await service.loadModel({});
  const passages = sections();
  const vectors = await service.embed(passages.map((p) => `${p.heading}. ${p.text}`));
  status.textContent = `Ready: ${passages.length} passages embedded in ${Math.round(performance.now() - started)} ms (offline model, ${dims} dimensions).`;
  input.disabled = false;
  form.querySelector('button')!.disabled = false;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void search(service, passages, vectors, dims, input.value);
  });
}

async function search(service: Comlink.Remote<RetrievalService>, passages: Passage[], vectors: Float32Array, dims: number, q: string): Promise<void> {
  const query = await service.embed([q]);
  const scored = passages.map((p, i) => {
    let dot = 0;
    for (let d = 0; d < dims; d++) dot += (query[d] ?? 0) * (vectors[i * dims + d] ?? 0);
    return { p, score: dot };
  }).sort((a, b) => b.score - a.score).slice(0, 5);
  results.replaceChildren(...scored.map(({ p, score }) => {
    const li = document.createElement('li');
    const meta = document.createElement('div');
    meta.className = 'meta';
    meta.textContent = `${p.title} › ${p.heading} · `;
    const s = document.createElement('span');
    s.className = 'score';
    s.textContent = score.toFixed(3);
    meta.append(s);
    const text = document.createElement('div');
    text.textContent = p.text; // textContent: document text is never parsed as HTML
    li.append(meta, text);
    return li;
  }));
}

main().catch((error: unknown) => {
  status.textContent = `Failed to start: ${error instanceof Error ? error.message : String(error)}`;
});
