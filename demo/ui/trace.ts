/**
 * The trace under a playground turn: what the gate decided and why, the
 * question actually searched, the passages with their scores, timings, and
 * (compare switch on) what the question as typed would have retrieved.
 */
import { passageLabel, type SearchHit, type TurnEvent } from '../../src/index';
import { h } from './dom';

type Search = (query: string) => Promise<SearchHit[]>;

const score = (value: number | undefined, digits: number) => (value === undefined ? '–' : value.toFixed(digits));

function passageTable(hits: readonly SearchHit[], caption: string, highlight?: ReadonlySet<number>): HTMLTableElement {
  return h('table', { className: 'passages' },
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, 'passage'), h('th', {}, 'fused'), h('th', {}, 'cosine'), h('th', {}, 'bm25'), h('th', { title: 'share of the question\'s information (its words weighted by rarity) this passage holds; the answer abstains when no passage reaches 0.2' }, 'coverage'))),
    h('tbody', {}, ...hits.map((hit, i) => h('tr', { className: highlight && !highlight.has(hit.chunkKey) ? 'differs' : '', dataset: { chunk: String(hit.chunkKey), doc: hit.docId } },
      h('td', {}, String(i + 1)), h('td', { title: hit.text }, passageLabel(hit)), h('td', {}, score(hit.score, 4)), h('td', {}, score(hit.dense, 3)), h('td', {}, score(hit.lexical, 2)), h('td', {}, score(hit.coverage, 2))))));
}

export class TraceView {
  readonly element: HTMLDetailsElement;
  private readonly decision = h('p', { className: 'decision' });
  private readonly retrieved = h('div', { className: 'retrieved' });
  private readonly compareBox = h('div', { className: 'compare', hidden: true });
  private readonly timing = h('p', { className: 'timing' });
  private original = '';
  private question = '';
  private hits: SearchHit[] = [];
  /** Whether the search ranked a second text beside the question (a kept question beside the previous one, say). */
  private hedged = false;
  private compared: Promise<void> | null = null;

  constructor() {
    this.element = h('details', { className: 'trace', open: true }, h('summary', {}, 'Trace'), this.decision, this.retrieved, this.compareBox, this.timing);
  }

  update(event: TurnEvent, compare: Search | null): void {
    if (event.type === 'condensed') {
      this.original = event.original;
      this.question = event.question;
      this.element.dataset.method = event.method;
      this.element.dataset.gate = event.gate;
      this.decision.replaceChildren(
        h('span', { className: `method method-${event.method}` }, event.method),
        ` ${event.gate} · `, h('q', { className: 'condensed' }, event.question),
        ...(event.query.terms.length ? [' ', h('span', { className: 'terms', title: 'conversation words added to the lexical query, below the weight of 1 of the words searched' }, `+ ${event.query.terms.map((t) => `${t.term} ${t.weight}`).join(', ')}`)] : []),
        h('br'), h('span', { className: 'reason' }, event.reason + (event.fallback ? ` (LLM rewrite not used: ${event.fallback})` : '')),
      );
    } else if (event.type === 'sources') {
      this.hits = event.chunks;
      this.hedged = event.hedged !== undefined;
      const kept = this.element.dataset.method === 'kept';
      const caption = !event.hedged ? `Retrieved with ${kept ? 'the question as typed' : 'the condensed question'}`
        : `Retrieved (hedged: ${kept ? 'the ranks of the question as typed' : "the condensed question's ranks"} fused with those of “${event.hedged.text}” at ${event.hedged.weight})`;
      this.retrieved.replaceChildren(passageTable(event.chunks, event.reading ? `${caption}, near the document of “${event.reading.label}”, quoted last (its other passages favoured)` : caption));
      if (compare) this.compare(compare);
    } else if (event.type === 'done') {
      const t = event.timings;
      this.timing.textContent = `condense ${t.condenseMs.toFixed(0)} ms · retrieve ${t.retrieveMs.toFixed(0)} ms · first token ${t.firstTokenMs.toFixed(0)} ms · total ${t.totalMs.toFixed(0)} ms · ${event.mode}`;
    }
  }

  /** Shows (search given) or hides the raw-question comparison. */
  compare(search: Search | null): void {
    this.compareBox.hidden = !search;
    if (!search || !this.hits.length || this.compared) return;
    const kept = this.original === this.question;
    if (kept && !this.hedged) {
      this.compareBox.replaceChildren(h('p', {}, 'The question was kept as typed: raw and condensed retrieval are the same.'));
      this.compared = Promise.resolve();
      return;
    }
    this.compareBox.replaceChildren(h('p', {}, 'Searching with the question as typed…'));
    this.compared = search(this.original).then((raw) => {
      const condensedKeys = new Set(this.hits.map((x) => x.chunkKey));
      const rawKeys = new Set(raw.map((x) => x.chunkKey));
      const same = raw[0]?.chunkKey === this.hits[0]?.chunkKey;
      this.compareBox.replaceChildren(
        h('p', { className: 'compare-verdict', dataset: { sameTop: String(same) } }, same ? 'Same top passage either way.' : kept ? 'The previous question ranked beside it changed the top passage.' : 'The condensed question changed the top passage.'),
        h('div', { className: 'side-by-side' },
          passageTable(raw, `As typed: “${this.original}”`, condensedKeys),
          passageTable(this.hits, kept ? `Kept as typed, the previous question beside it: “${this.question}”` : `Condensed: “${this.question}”`, rawKeys)),
      );
    }, (error: unknown) => {
      this.compared = null;
      this.compareBox.replaceChildren(h('p', { className: 'error' }, `Raw search failed: ${error instanceof Error ? error.message : String(error)}`));
    });
  }
}
