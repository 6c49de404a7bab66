/**
 * The playground's Evaluate panel: runs an evaluation set (the two files of
 * `shared/eval/README.md`'s format) through this page's own pipeline, with
 * the embedding model and language model chosen above (the WebLLM condenser
 * included), and shows the same table and chart as `npm run eval`, exportable
 * as the same JSON. This is how the LLM half gets measured: on the user's own
 * GPU. The set is indexed in its own IndexedDB name, apart from the user's documents.
 */
import { runEval, type EvalEngine, type EvalReport } from '../../scripts/eval/core';
import { isAnswers, withGoldAnswers } from '../../scripts/eval/answers';
import { parseEvalSet } from '../../scripts/eval/parse';
import { svgChart, table } from '../../scripts/eval/report';
import { withTyping } from '../../scripts/eval/typing';
import { contexts, type Strategy } from '../../scripts/eval/strategies';
import { specificityFrom } from '../../src/chat/specificity';
import { writtenFormsFrom } from '../../src/chat/written-forms';
import { contentWords } from '../../src/text/tokens';
import { createThreadline, type EmbedderOptions, type Llm } from '../../src/index';
import { download, h } from './dom';
import type { ProgressBar } from './progress-bar';

export interface EvaluatePanelParts {
  files: HTMLInputElement;
  /** Checked: hybrid search weighs the dense ranking by its lexical agreement (search.weights.corroboration 1); unchecked: 0. */
  corroboration: HTMLInputElement;
  /**
   * What the assistant turns say (`npm run eval -- --answers …`): `as-given`; `gold`, empty ones filled with their gold
   * passages, for sets written without answers; `passages`, every one replaced by its gold passage, as a page without a
   * language model answers (by quoting the passage it found).
   */
  answers: HTMLSelectElement;
  /** Checked: user turns retyped as on a phone (`npm run eval -- --typing phone`). */
  phoneTyping: HTMLInputElement;
  run: HTMLButtonElement;
  exportJson: HTMLButtonElement;
  output: HTMLElement;
  bar: ProgressBar;
  /** The models chosen in the playground right now. */
  models: () => { embedder: EmbedderOptions; key: string; llm: Llm | undefined } | null;
}

export function mountEvaluatePanel(parts: EvaluatePanelParts): { run(): Promise<EvalReport | null> } {
  let report: EvalReport | null = null;

  const run = async (): Promise<EvalReport | null> => {
    const models = parts.models();
    const files = [...(parts.files.files ?? [])];
    const conversations = files.find((f) => /conversations\.jsonl$/i.test(f.name));
    const corpus = files.find((f) => /corpus\.jsonl$/i.test(f.name));
    if (!models) { parts.bar.fail('Open the playground first (a model must be loaded).'); return null; }
    if (!conversations) { parts.bar.fail('Choose conversations.jsonl (and corpus.jsonl for retrieval figures).'); return null; }
    parts.run.disabled = true;
    parts.exportJson.hidden = true;
    try {
      parts.bar.set(null, 'Reading the set…');
      const answers = isAnswers(parts.answers.value) ? parts.answers.value : 'as-given';
      if (answers !== 'as-given' && !corpus) { parts.bar.fail('Gold answers need corpus.jsonl: the answers are its gold passages.'); return null; }
      const parsed = parseEvalSet(corpus ? await corpus.text() : null, await conversations.text());
      const typing = parts.phoneTyping.checked ? 'phone' : 'as-given';
      const set = withTyping(answers === 'as-given' ? parsed : withGoldAnswers(parsed, answers), typing);
      const name = `playground-eval-${models.key}`;
      const corroboration = parts.corroboration.checked ? 1 : 0;
      const tl = await createThreadline({ name, embedder: models.embedder, search: { weights: { corroboration } }, ...(models.llm ? { llm: models.llm } : {}) });
      try {
        await tl.clear();
        if (set.passages) {
          parts.bar.set(0, `Indexing ${set.passages.length} passages…`);
          await tl.add(set.passages.map((p) => ({ id: p.id, text: p.text })), {
            onProgress: (p) => { if (p.phase === 'ingest') parts.bar.set(p.chunksTotal ? p.chunksDone / p.chunksTotal : null, `Indexing: ${p.chunksDone}/${p.chunksTotal} chunks`); },
          });
        }
        const words = [...new Set(contexts(set.conversations).flatMap((c) => contentWords(c.turn.user)))].slice(0, 1000);
        const stats = await tl.stats();
        const terms = await tl.termStats(words, { forms: true });
        let done = 0;
        const engine: EvalEngine = {
          model: stats.modelId,
          specificity: specificityFrom(terms),
          forms: writtenFormsFrom(terms),
          rank: async (queries, depth, mode) => {
            const ranked: string[][] = [];
            for (const q of queries) {
              ranked.push((await tl.search(q.query, { k: depth, ...(mode ? { mode } : {}) })).map((hit) => hit.docId));
              parts.bar.set(null, `Searching: ${++done} queries`);
            }
            return ranked;
          },
        };
        const strategies: Strategy[] = ['raw', 'rules', 'expand', ...(models.llm ? ['llm' as const, 'llm-expand' as const] : []), 'oracle'];
        parts.bar.set(null, models.llm ? `Condensing with ${models.llm.id} and searching…` : 'Condensing and searching…');
        report = await runEval(set, set.passages ? engine : { ...engine, rank: () => Promise.resolve([]) }, { data: `${conversations.name} (playground${corroboration ? '' : ', corroboration off'})`, answers, typing, strategies, ...(models.llm ? { llm: models.llm } : {}) });
      } finally {
        await tl.dispose();
      }
      show(report);
      parts.bar.done(`Evaluated ${report.turns.length} turns in ${(report.ms / 1000).toFixed(1)} s`);
      parts.exportJson.hidden = false;
      return report;
    } catch (error) {
      parts.bar.fail(`Evaluation failed: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    } finally {
      parts.run.disabled = false;
    }
  };

  // The table is text; the chart is our own SVG shown as an image, so nothing in it can run.
  const show = (r: EvalReport) => {
    const children: Node[] = [h('pre', { className: 'eval-table' }, table(r))];
    if (r.corpus) children.push(h('img', { className: 'eval-chart', alt: 'MRR by turn kind and strategy', src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgChart(r))}` }));
    parts.output.replaceChildren(...children);
  };

  parts.run.addEventListener('click', () => void run());
  parts.exportJson.addEventListener('click', () => {
    if (!report) return;
    // The same JSON as `npm run eval -- --json` (per-turn rows are --turns there, left out here too).
    const summary = { ...report, turns: undefined };
    download(`${JSON.stringify(summary, null, 2)}\n`, 'threadline-eval.json', 'application/json');
  });
  return { run };
}
