/**
 * Demo: the sample knowledge base indexed by threadline (offline model,
 * hybrid search) in its retrieval worker; results rendered as plain text.
 */
import { createThreadline, type SearchHit, type Threadline } from '../src/index';
import { SAMPLE_KB } from './sample-kb';

const $ = <T extends HTMLElement>(sel: string) => document.querySelector<T>(sel)!;
const status = $<HTMLParagraphElement>('#status');
const form = $<HTMLFormElement>('#search');
const input = $<HTMLInputElement>('#q');
const results = $<HTMLOListElement>('#results');

async function main(): Promise<void> {
  const started = performance.now();
  const tl = await createThreadline({ name: 'demo' });
  const added = await tl.add(SAMPLE_KB.map((d) => ({ id: d.id, title: d.title, url: d.url, text: d.markdown, format: 'markdown' as const })));
  const stats = await tl.stats();
  status.textContent = `Ready in ${Math.round(performance.now() - started)} ms: ${stats.docs} documents, ${stats.chunks} chunks `
    + `(${added.added} embedded now, ${added.unchanged} restored from IndexedDB), offline model, ${stats.dims} dimensions.`;
  input.disabled = false;
  form.querySelector('button')!.disabled = false;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void search(tl, input.value);
  });
}

async function search(tl: Threadline, q: string): Promise<void> {
  if (!q.trim()) return;
  const hits = await tl.search(q, { k: 5 });
  results.replaceChildren(...hits.map(render));
}

function render(hit: SearchHit): HTMLLIElement {
  const li = document.createElement('li');
  const meta = document.createElement('div');
  meta.className = 'meta';
  // textContent everywhere: document text is never parsed as HTML.
  meta.textContent = `${[hit.title, ...hit.headingPath.slice(1)].join(' › ')} · `;
  const score = document.createElement('span');
  score.className = 'score';
  score.textContent = `fused ${hit.score.toFixed(4)} · cosine ${hit.dense?.toFixed(3) ?? '–'} · bm25 ${hit.lexical?.toFixed(2) ?? '–'}`;
  meta.append(score);
  const text = document.createElement('div');
  text.textContent = hit.text;
  li.append(meta, text);
  return li;
}

main().catch((error: unknown) => {
  status.textContent = `Failed to start: ${error instanceof Error ? error.message : String(error)}`;
});
