/** A labelled progress bar; `fraction` null means "busy, amount unknown". */
import type { Progress } from '../../src/index';
import { formatBytes, h } from './dom';

export class ProgressBar {
  readonly element: HTMLDivElement;
  private readonly bar: HTMLProgressElement;
  private readonly text: HTMLSpanElement;

  constructor(readonly name: string) {
    this.bar = h('progress', { max: 1 });
    this.text = h('span', { className: 'progress-text' });
    this.element = h('div', { className: 'progress', hidden: true, dataset: { name } }, h('span', { className: 'progress-label' }, name), this.bar, this.text);
  }

  set(fraction: number | null, text: string): void {
    this.element.hidden = false;
    this.element.dataset.state = 'running';
    if (fraction === null) this.bar.removeAttribute('value');
    else this.bar.value = Math.max(0, Math.min(1, fraction));
    this.text.textContent = text;
  }

  done(text: string): void {
    this.set(1, text);
    this.element.dataset.state = 'done';
  }

  fail(text: string): void {
    this.element.hidden = false;
    this.element.dataset.state = 'failed';
    this.text.textContent = text;
  }
}

/** The playground's progress listener: model downloads and LLM loading on the Models bar, ingest on its own. */
export function progressHandler(bars: { model: ProgressBar; ingest: ProgressBar }, gpu: HTMLElement, setStatus: (text: string) => void): (p: Progress) => void {
  return (p) => {
    switch (p.phase) {
      case 'model-download': bars.model.set(p.fraction, `${p.model}: ${p.file} ${formatBytes(p.loaded)}${p.total ? ` of ${formatBytes(p.total)}` : ''}`); break;
      case 'model-ready': bars.model.done(`Embedding model ready (${p.device}, ${p.dims} dims) in ${Math.round(p.ms)} ms`); break;
      case 'model-fallback': bars.model.fail(`${p.from} could not load (${p.reason}); using ${p.to}`); break;
      case 'index-download': bars.ingest.set(p.total ? p.fraction : null, `index ${p.url.slice(p.url.lastIndexOf('/') + 1)}: ${formatBytes(p.loaded)}${p.total ? ` of ${formatBytes(p.total)}` : ''}`); break;
      case 'hydrate': setStatus(`Restored ${p.chunks} chunks from IndexedDB in ${Math.round(p.ms)} ms`); break;
      case 'llm-load': if (p.stage === 'ready') bars.model.done(p.text); else bars.model.set(p.fraction, p.text); break;
      case 'llm-status': gpu.textContent = `Language model: ${p.status}. ${p.reason}`; break;
      case 'parse': bars.ingest.set(p.page / p.pages, `reading ${p.docId}: page ${p.page} of ${p.pages}`); break;
      case 'rebuild': bars.ingest.set(p.chunksTotal ? p.chunksDone / p.chunksTotal : null, `re-embedding with the new model: ${p.chunksDone}/${p.chunksTotal} chunks`); break;
      case 'ingest': bars.ingest.set(p.chunksTotal ? p.chunksDone / p.chunksTotal : null, `${p.docsDone}/${p.docsTotal} documents · ${p.chunksDone}/${p.chunksTotal} chunks · ${Math.round(p.chunksPerSecond)} chunks/s`); break;
    }
  };
}
