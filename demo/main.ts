/**
 * The threadline playground: bring documents (or the sample knowledge base),
 * pick the models, chat, and see what every turn did: the condensed question,
 * why, what was retrieved with which scores, and (compare switch) what the
 * question as typed would have retrieved. Everything runs in this page and
 * its workers; after the first visit the service worker serves it offline.
 *
 * Test seam: a page may put an `Llm` object on `window.threadlineLlm` before
 * this script runs; it is then offered (and selected) as "injected". The
 * end-to-end tests use it for a scripted fake model.
 */
import {
  checkWebGpu, createThreadline, isThreadlineError,
  type ChatSession, type DocumentInfo, type Llm, type Progress, type SearchHit, type Threadline, type ThreadlineDocument,
} from '../src/index';
import { conversationJson, conversationMarkdown, followTurn, TurnView } from '../src/render';
import { SAMPLE_KB } from './sample-kb';
import { embedderChoices, LLM_CHOICES, type LlmChoice } from './ui/choices';
import { $, formatBytes, h } from './ui/dom';
import { readDocuments } from './ui/files';
import { ProgressBar } from './ui/progress-bar';
import { renderSessions } from './ui/sessions';
import { TraceView } from './ui/trace';
import { mountEvaluatePanel } from './ui/evaluate-panel';
import { starterQuestions } from './ui/starters';

declare global {
  interface Window { threadlineLlm?: Llm }
}

const ui = {
  status: $<HTMLParagraphElement>('#status'),
  drop: $<HTMLLabelElement>('#drop'),
  files: $<HTMLInputElement>('#files'),
  sample: $<HTMLButtonElement>('#sample'),
  indexInfo: $<HTMLParagraphElement>('#index-info'),
  docList: $<HTMLUListElement>('#doc-list'),
  storage: $<HTMLSpanElement>('#storage'),
  clearAll: $<HTMLButtonElement>('#clear-all'),
  embedder: $<HTMLSelectElement>('#embedder'),
  llm: $<HTMLSelectElement>('#llm'),
  gpu: $<HTMLParagraphElement>('#gpu'),
  newSession: $<HTMLButtonElement>('#new-session'),
  exportMarkdown: $<HTMLButtonElement>('#export-md'),
  exportJson: $<HTMLButtonElement>('#export-json'),
  sessionList: $<HTMLUListElement>('#session-list'),
  compare: $<HTMLInputElement>('#compare'),
  details: $<HTMLInputElement>('#details'),
  main: $<HTMLElement>('main'),
  starters: $<HTMLDivElement>('#starters'),
  chat: $<HTMLOListElement>('#chat'),
  form: $<HTMLFormElement>('#ask'),
  question: $<HTMLInputElement>('#question'),
  askButton: $<HTMLButtonElement>('#ask-button'),
  stop: $<HTMLButtonElement>('#stop'),
};
const bars = { model: new ProgressBar('Models'), ingest: new ProgressBar('Ingest'), generation: new ProgressBar('Generation') };
$('#model-progress').append(bars.model.element);
$('#ingest-progress').append(bars.ingest.element);
$('#generation-progress').append(bars.generation.element);
const evalBar = new ProgressBar('Evaluation');
$('#eval-progress').append(evalBar.element);
const ingestCancel = h('button', { type: 'button', hidden: true }, 'Cancel ingest');
$('#ingest-progress').append(ingestCancel);

const EMBEDDERS = embedderChoices();
const injected = window.threadlineLlm;
const LLMS: LlmChoice[] = [
  ...(injected ? [{ key: 'injected', label: `Injected by the page: ${injected.id}`, needsGpu: false, option: () => injected }] : []),
  ...LLM_CHOICES,
];

const state = {
  tl: null as Threadline | null,
  session: null as ChatSession | null,
  shaderF16: false,
  turnAbort: null as AbortController | null,
  traces: [] as TraceView[],
  opening: Promise.resolve(),
};

const errorText = (error: unknown) => (isThreadlineError(error) ? `${error.message} (${error.code})` : error instanceof Error ? error.message : String(error));

function setStatus(text: string, error = false): void {
  ui.status.textContent = text;
  ui.status.dataset.state = error ? 'error' : 'ok';
}

function setReady(ready: boolean): void {
  for (const control of [ui.question, ui.askButton, ui.sample, ui.files, ui.clearAll, ui.newSession, ui.exportMarkdown, ui.exportJson, ui.embedder, ui.llm]) control.disabled = !ready;
}

function onProgress(p: Progress): void {
  switch (p.phase) {
    case 'model-download': bars.model.set(p.fraction, `${p.model}: ${p.file} ${formatBytes(p.loaded)}${p.total ? ` of ${formatBytes(p.total)}` : ''}`); break;
    case 'model-ready': bars.model.done(`Embedding model ready (${p.device}, ${p.dims} dims) in ${Math.round(p.ms)} ms`); break;
    case 'model-fallback': bars.model.fail(`${p.from} could not load (${p.reason}); using ${p.to}`); break;
    case 'hydrate': setStatus(`Restored ${p.chunks} chunks from IndexedDB in ${Math.round(p.ms)} ms`); break;
    case 'llm-load': if (p.stage === 'ready') bars.model.done(p.text); else bars.model.set(p.fraction, p.text); break;
    case 'llm-status': ui.gpu.textContent = `Language model: ${p.status}. ${p.reason}`; break;
    case 'ingest': bars.ingest.set(p.chunksTotal ? p.chunksDone / p.chunksTotal : null, `${p.docsDone}/${p.docsTotal} documents · ${p.chunksDone}/${p.chunksTotal} chunks · ${Math.round(p.chunksPerSecond)} chunks/s`); break;
  }
}

function fillChoices(): void {
  const saved = { embedder: localStorage.getItem('playground.embedder'), llm: localStorage.getItem('playground.llm') };
  ui.embedder.replaceChildren(...EMBEDDERS.map((c) => h('option', { value: c.key, selected: c.key === saved.embedder }, c.label)));
  ui.llm.replaceChildren(...LLMS.map((c) => h('option', { value: c.key, selected: injected ? c.key === 'injected' : c.key === saved.llm }, c.label)));
}

async function checkGpu(): Promise<void> {
  try {
    const gpu = await checkWebGpu();
    state.shaderF16 = gpu.shaderF16;
    ui.gpu.textContent = `WebGPU: ${gpu.adapter || 'adapter found'}${gpu.shaderF16 ? ', shader-f16' : ', no shader-f16 (f32 builds)'}.`;
  } catch (error) {
    ui.gpu.textContent = `WebGPU unavailable: ${errorText(error)} WebLLM models are disabled; without a language model, answers are extractive.`;
    for (const option of ui.llm.options) {
      if (LLMS.find((c) => c.key === option.value)?.needsGpu) option.disabled = true;
    }
    if (ui.llm.selectedOptions[0]?.disabled) ui.llm.value = 'none';
  }
}

/** (Re)creates the threadline instance for the selected models; each embedder has its own index. */
async function open(): Promise<void> {
  setReady(false);
  state.turnAbort?.abort();
  await state.tl?.dispose();
  state.tl = null;
  state.session = null;
  const embedder = EMBEDDERS.find((c) => c.key === ui.embedder.value) ?? EMBEDDERS[0];
  const llm = LLMS.find((c) => c.key === ui.llm.value) ?? LLMS[0];
  if (!embedder || !llm) return;
  setStatus('Opening the index…');
  try {
    const tl = await createThreadline({ name: `playground-${embedder.key}`, embedder: embedder.options, llm: llm.option(state.shaderF16), onProgress });
    state.tl = tl;
    const sessions = await tl.sessions();
    await openSession(sessions[0]?.id);
    await refreshIndex();
    setStatus(`Ready. Answers: ${tl.llm ? `generated by ${tl.llm.id}` : 'extractive (no language model)'}; condensation: ${tl.llm ? 'language model, rules as fallback' : 'rules'}.`);
    setReady(true);
  } catch (error) {
    setStatus(`Could not open: ${errorText(error)}`, true);
    ui.embedder.disabled = false;
    ui.llm.disabled = false;
  }
}

async function refreshIndex(): Promise<void> {
  try {
    await showIndex();
  } catch (error) {
    setStatus(`Could not read the index: ${errorText(error)}`, true);
  }
}

async function showIndex(): Promise<void> {
  const tl = state.tl;
  if (!tl) return;
  const [stats, docs, estimate] = await Promise.all([tl.stats(), tl.documents(), navigator.storage?.estimate?.().catch(() => null) ?? null]);
  Object.assign(ui.indexInfo.dataset, { docs: String(stats.docs), chunks: String(stats.chunks), embeddedChunks: String(stats.embeddedChunks) });
  ui.indexInfo.textContent = `${stats.docs} documents · ${stats.chunks} chunks · ${stats.modelId} · embedded during this visit: ${stats.embeddedChunks} chunks, ${stats.embeddedQueries} question${stats.embeddedQueries === 1 ? '' : 's'}`;
  // The placeholder names the user's own documents, not the sample's.
  const titles = docs.slice(0, 3).map((d) => d.title ?? d.id);
  ui.question.placeholder = docs.length ? `Ask about ${titles.join(', ')}${docs.length > 3 ? ', …' : ''}` : 'Add documents (or the sample), then ask about them';
  ui.docList.replaceChildren(...(docs.length ? docs.map((d) => h('li', { dataset: { doc: d.id } },
    h('span', { title: d.id }, `${d.title ?? d.id} (${d.chunks} chunks)`),
    h('button', { type: 'button', onclick: () => void forget(d.id), attrs: { 'aria-label': `Forget ${d.title ?? d.id}` } }, 'Forget'))) : [h('li', { className: 'empty' }, 'No documents yet: drop files or use the sample.')]));
  ui.storage.textContent = storageText(estimate);
  await showStarters(docs);
  await refreshSessions();
}

/** Starter questions while the conversation is empty, from the loaded documents. */
async function showStarters(docs: readonly DocumentInfo[]): Promise<void> {
  const empty = !state.turnAbort && (state.session?.history().length ?? 1) === 0 && state.tl !== null;
  const questions = empty && docs.length ? await starterQuestions(state.tl as Threadline, docs) : [];
  ui.starters.hidden = questions.length === 0;
  ui.starters.replaceChildren(...questions.map((q) => h('button', { type: 'button', onclick: () => void ask(q) }, q)));
}

/**
 * Your data (IndexedDB: documents, vectors, conversations) apart from the app and models
 * (the service worker's cache, web-llm's caches), where the browser says (Chromium's usageDetails).
 */
function storageText(estimate: (StorageEstimate & { usageDetails?: Record<string, number> }) | null): string {
  if (estimate?.usage === undefined) return 'unknown';
  const details = estimate.usageDetails;
  ui.storage.dataset.yourData = String(details?.indexedDB ?? '');
  if (!details) return `${formatBytes(estimate.usage)} used${estimate.quota ? ` of ${formatBytes(estimate.quota)}` : ''}`;
  const yours = details.indexedDB ?? 0;
  return `your data ${formatBytes(yours)} · app and models ${formatBytes(Math.max(0, estimate.usage - yours))}${estimate.quota ? ` · ${formatBytes(estimate.quota)} available to this site` : ''}`;
}

async function refreshSessions(): Promise<void> {
  if (!state.tl) return;
  renderSessions(ui.sessionList, await state.tl.sessions(), state.session?.id ?? null, {
    resume: (id) => void openSession(id).then(refreshIndex),
    remove: (id) => void removeSession(id),
  });
}

async function openSession(id?: string): Promise<void> {
  if (!state.tl) return;
  state.session = await state.tl.chat(id ? { sessionId: id } : {});
  state.traces = [];
  const llmId = state.tl.llm?.id;
  ui.chat.replaceChildren(...state.session.history().map((turn) => {
    const view = TurnView.restored(turn, llmId ? { llmId } : {});
    view.element.append(h('p', { className: 'muted' }, 'Restored turn: its trace was not stored.'));
    return view.element;
  }));
}

/** Downloads the open conversation as Markdown or JSON, with its citations. */
function exportSession(format: 'md' | 'json'): void {
  const turns = state.session?.history() ?? [];
  const llmId = state.tl?.llm?.id;
  const options = llmId ? { llmId } : {};
  const text = format === 'md' ? conversationMarkdown(turns, options) : conversationJson(turns, options);
  const url = URL.createObjectURL(new Blob([text], { type: format === 'md' ? 'text/markdown' : 'application/json' }));
  const link = h('a', { href: url, attrs: { download: `conversation-${new Date().toISOString().slice(0, 10)}.${format}` } });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

async function removeSession(id: string): Promise<void> {
  if (!state.tl) return;
  const target = id === state.session?.id ? state.session : await state.tl.chat({ sessionId: id });
  await target.delete();
  if (id === state.session?.id) await openSession();
  await refreshIndex();
}

async function addDocuments(docs: ThreadlineDocument[], skipped: { name: string; reason: string }[] = []): Promise<void> {
  const tl = state.tl;
  if (!tl || !docs.length) {
    if (skipped.length) bars.ingest.fail(`Skipped: ${skipped.map((s) => `${s.name} (${s.reason})`).join('; ')}`);
    return;
  }
  const abort = new AbortController();
  ingestCancel.hidden = false;
  ingestCancel.onclick = () => abort.abort();
  const started = performance.now();
  const failed = [...skipped];
  let added = 0;
  let chunks = 0;
  try {
    // One bad file never refuses the others: the library reports it and indexes the rest.
    const result = await tl.add(docs, { signal: abort.signal, onProgress, skipInvalid: true });
    added = result.added;
    chunks = result.chunks;
    for (const f of result.failed) failed.push({ name: f.id ?? docs[f.index]?.id ?? `#${f.index}`, reason: f.message });
    const seconds = (performance.now() - started) / 1000;
    const summary = `${added} documents, ${chunks} chunks indexed in ${seconds.toFixed(1)} s (${Math.round(chunks / Math.max(seconds, 0.001))} chunks/s)`;
    if (failed.length) bars.ingest.fail(`${summary}. Skipped: ${failed.map((s) => `${s.name} (${s.reason})`).join('; ')}`);
    else bars.ingest.done(summary);
  } catch (error) {
    bars.ingest.fail(`Ingest stopped: ${errorText(error)}. Documents already committed stay indexed.`);
  } finally {
    ingestCancel.hidden = true;
    await refreshIndex();
  }
}

async function forget(id: string): Promise<void> {
  if (!state.tl) return;
  await state.tl.remove([id]);
  await refreshIndex();
}

let clearArmed: ReturnType<typeof setTimeout> | null = null;
async function clearEverything(): Promise<void> {
  const tl = state.tl;
  if (!tl) return;
  if (!clearArmed) {
    ui.clearAll.textContent = 'Click again to delete every document and conversation';
    clearArmed = setTimeout(() => { clearArmed = null; ui.clearAll.textContent = 'Clear everything'; }, 5000);
    return;
  }
  clearTimeout(clearArmed);
  clearArmed = null;
  ui.clearAll.textContent = 'Clear everything';
  await tl.clear();
  await tl.clearSessions();
  await openSession();
  await refreshIndex();
  setStatus('Cleared: no documents, no conversations. Downloaded models stay in the browser cache.');
}

const rawSearch = (query: string): Promise<SearchHit[]> => state.tl?.search(query, { k: 5 }) ?? Promise.resolve([]);

async function ask(question: string): Promise<void> {
  const session = state.session;
  if (!session || state.turnAbort) return;
  const abort = new AbortController();
  state.turnAbort = abort;
  ui.question.value = '';
  ui.starters.hidden = true;
  ui.question.disabled = ui.askButton.disabled = true;
  ui.stop.hidden = false;
  const llmId = state.tl?.llm?.id;
  const view = new TurnView(question, llmId ? { llmId } : {});
  const trace = new TraceView();
  state.traces.push(trace);
  view.element.append(trace.element);
  ui.chat.append(view.element);
  // The page scrolls (the question box is sticky at its bottom): the new question goes to the top of the window.
  const follow = followTurn(document.scrollingElement ?? document.documentElement, view.element);
  let pieces = 0;
  let firstAt = 0;
  try {
    for await (const event of session.ask(question, { signal: abort.signal })) {
      view.update(event);
      trace.update(event, ui.compare.checked ? rawSearch : null);
      if (event.type === 'token' || event.type === 'done') follow();
      if (event.type === 'token') {
        pieces++;
        firstAt ||= performance.now();
        const seconds = (performance.now() - firstAt) / 1000;
        bars.generation.set(null, `${pieces} pieces${seconds > 0.2 ? ` · ${(pieces / seconds).toFixed(1)}/s` : ''}`);
      } else if (event.type === 'done') {
        bars.generation.done(`${event.mode}: ${pieces} pieces, ${Math.round(event.timings.totalMs)} ms for the turn`);
      }
    }
  } catch (error) {
    const aborted = isThreadlineError(error) && error.code === 'ABORTED';
    view.fail(aborted ? 'Stopped. This turn was not saved.' : `Failed: ${errorText(error)}`);
    bars.generation.fail(aborted ? 'Stopped' : errorText(error));
  } finally {
    follow.stop();
    state.turnAbort = null;
    ui.stop.hidden = true;
    ui.question.disabled = ui.askButton.disabled = false;
    ui.question.focus({ preventScroll: true });
    await refreshIndex();
  }
}

function wire(): void {
  ui.form.addEventListener('submit', (event) => {
    event.preventDefault();
    const q = ui.question.value.trim();
    if (q) void ask(q);
  });
  ui.stop.addEventListener('click', () => state.turnAbort?.abort());
  ui.form.addEventListener('keydown', (event) => { if (event.key === 'Escape') state.turnAbort?.abort(); });
  ui.sample.addEventListener('click', () => void addDocuments(SAMPLE_KB.map((d) => ({ id: d.id, title: d.title, url: d.url, text: d.markdown, format: 'markdown' as const }))));
  ui.files.addEventListener('change', () => {
    const files = [...(ui.files.files ?? [])];
    ui.files.value = '';
    void readDocuments(files).then(({ docs, skipped }) => addDocuments(docs, skipped));
  });
  ui.drop.addEventListener('dragover', (event) => { event.preventDefault(); ui.drop.classList.add('over'); });
  ui.drop.addEventListener('dragleave', () => ui.drop.classList.remove('over'));
  ui.drop.addEventListener('drop', (event) => {
    event.preventDefault();
    ui.drop.classList.remove('over');
    if (!state.tl) return;
    void readDocuments(event.dataTransfer?.files ?? []).then(({ docs, skipped }) => addDocuments(docs, skipped));
  });
  ui.clearAll.addEventListener('click', () => void clearEverything());
  ui.newSession.addEventListener('click', () => void openSession().then(refreshIndex));
  ui.exportMarkdown.addEventListener('click', () => exportSession('md'));
  ui.exportJson.addEventListener('click', () => exportSession('json'));
  // Simple view by default: the trace and the compare switch are one click away, remembered.
  ui.details.checked = localStorage.getItem('playground.details') === 'on';
  ui.main.classList.toggle('details', ui.details.checked);
  ui.details.addEventListener('change', () => {
    ui.main.classList.toggle('details', ui.details.checked);
    localStorage.setItem('playground.details', ui.details.checked ? 'on' : 'off');
  });
  ui.compare.addEventListener('change', () => { for (const t of state.traces) t.compare(ui.compare.checked ? rawSearch : null); });
  for (const select of [ui.embedder, ui.llm]) {
    select.addEventListener('change', () => {
      localStorage.setItem(`playground.${select.id}`, select.value);
      state.opening = state.opening.then(open);
    });
  }
}

mountEvaluatePanel({
  files: $<HTMLInputElement>('#eval-files'),
  run: $<HTMLButtonElement>('#eval-run'),
  exportJson: $<HTMLButtonElement>('#eval-export'),
  output: $<HTMLElement>('#eval-output'),
  bar: evalBar,
  models: () => {
    const embedder = EMBEDDERS.find((c) => c.key === ui.embedder.value) ?? EMBEDDERS[0];
    return state.tl && embedder ? { embedder: embedder.options, key: embedder.key, llm: state.tl.llm } : null;
  },
});

async function main(): Promise<void> {
  if (import.meta.env.PROD && 'serviceWorker' in navigator) {
    // Offline after the first visit; a failure only costs offline use.
    navigator.serviceWorker.register('./sw.js', { type: 'module' }).catch((error: unknown) => console.warn('service worker not registered', error));
  }
  fillChoices();
  wire();
  await checkGpu();
  state.opening = open();
  await state.opening;
}

main().catch((error: unknown) => setStatus(`Failed to start: ${errorText(error)}`, true));
