/** Renders an evaluation report as an aligned text table and as an SVG bar chart. */
import type { EvalReport, KindKey, Strategy, StrategyReport } from './core';

const KINDS: KindKey[] = ['first', 'standalone', 'followup', 'all'];
const f = (x: number | null, digits = 3) => (x === null ? '–' : x.toFixed(digits));

export const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export function table(report: EvalReport): string {
  const ranked = report.corpus;
  const header = ['strategy', ...(ranked ? [...KINDS.map((k) => `${k} MRR`), 'followup R@1', 'followup R@10', 'followup nDCG@10', 'gap closure', 'regression'] : []), 'terms P', 'terms R', 'terms F1', 'changed followup', 'changed standalone'];
  const rows = Object.entries(report.strategies).map(([name, s]) => [
    name,
    ...(ranked && s.kinds ? [...KINDS.map((k) => f(s.kinds?.[k].mrr ?? 0)), f(s.kinds.followup.r1), f(s.kinds.followup.r10), f(s.kinds.followup.ndcg10), s.gapClosure === null ? '–' : pct(s.gapClosure), f(s.regression)] : []),
    f(s.terms.p), f(s.terms.r), f(s.terms.f1), pct(s.changed.followup), pct(s.changed.standalone),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  const count = (kind: 'first' | 'standalone' | 'followup') => report.turns.filter((t) => t.kind === kind).length;
  const g = report.gate;
  return [
    `data ${report.data} · ${ranked ? `retrieval ${report.retrieval} · MRR@${report.depth} · ` : 'no corpus: gate and term resolution only · '}model ${report.model} · specificity from ${report.specificity}${report.answers === 'gold' ? ' · empty answers filled with gold passages' : report.answers === 'passages' ? ' · every answer replaced by its gold passage' : ''}${report.typing === 'phone' ? ' · user turns typed as on a phone (lower case, no apostrophes, no closing question mark)' : ''}${ranked && !report.reading ? ' · no reading context' : ''}`,
    `turns: first ${count('first')}, standalone ${count('standalone')}, followup ${count('followup')}`,
    line(header), line(header.map((_, i) => '-'.repeat(widths[i] ?? 0))), ...rows.map(line),
    ...(ranked && Object.values(report.strategies).some((s) => s.gapClosureCI) ? [`gap closure, 95% interval (follow-up turns resampled 2,000 times): ${Object.entries(report.strategies).filter(([name, s]) => s.gapClosureCI && name !== 'raw' && name !== 'oracle').map(([name, s]) => `${name} ${pct(s.gapClosureCI?.[0] ?? 0)} to ${pct(s.gapClosureCI?.[1] ?? 0)}`).join(', ')}`] : []),
    ...Object.entries(report.strategies).filter(([, s]) => s.snippet).map(([name, s]) => `snippet (${name}): the extractive answer's sentence comes from a gold passage in ${pct(s.snippet?.fromGold ?? 0)} of follow-ups (first passage gold: ${pct(s.snippet?.firstPassageGold ?? 0)}; no snippet: ${pct(s.snippet?.none ?? 0)})`),
    ...partsLines(report),
    report.abstention ? `abstention (expand, follow-ups, top ${report.abstention.k}, coverage < ${report.abstention.minCoverage}): fires on ${pct(report.abstention.withGold)} of turns with their gold passages in the index, ${pct(report.abstention.goldRemoved)} with them removed, ${pct(report.abstention.topicRemoved)} with the conversation's topic removed` : '',
    report.abstention ? `abstention AUC (present vs removed; 0.5: cannot tell them apart): gold removed: cosine ${f(report.abstention.aucGold.dense)}, BM25 ${f(report.abstention.aucGold.lexical)}, coverage ${f(report.abstention.aucGold.coverage)}; topic removed: cosine ${f(report.abstention.aucTopic.dense)}, BM25 ${f(report.abstention.aucTopic.lexical)}, coverage ${f(report.abstention.aucTopic.coverage)}` : '',
    g ? `gate (expand): keeps ${pct(g.keptFirst)} of first turns, ${pct(g.keptStandalone)} of standalone turns; condenses or expands ${pct(g.condensedFollowup)} of follow-ups` : '',
    report.gateRules ? `gate (rules): keeps ${pct(report.gateRules.keptFirst)} of first turns, ${pct(report.gateRules.keptStandalone)} of standalone turns; condenses ${pct(report.gateRules.condensedFollowup)} of follow-ups` : '',
    report.skipped.length ? `skipped: ${report.skipped.join(', ')} (no LLM supplied)` : '',
    `${(report.ms / 1000).toFixed(1)} s`,
  ].filter(Boolean).join('\n');
}

/** A difference to three decimals with its sign; one that rounds to zero is +0.000. */
export const signed = (x: number) => `${Number(x.toFixed(3)) < 0 ? '−' : '+'}${Math.abs(x).toFixed(3)}`;
/** Float noise in a sum of reciprocal-rank differences that are 0 in exact arithmetic. */
export const EPSILON = 1e-9;

/** Hybrid against each of its parts alone (EvalReport.parts), a line per strategy and turn group. */
function partsLines(report: EvalReport): string[] {
  if (!report.parts) return [];
  const groups = [['firstStandalone', 'first+standalone'], ['followup', 'follow-ups']] as const;
  const lines = Object.entries(report.parts).flatMap(([name, parts]) => groups.filter(([key]) => parts[key].n > 0).map(([key, label]) => {
    const g = parts[key];
    const part = (which: 'lexical' | 'dense') => {
      const c = g[which];
      const below = c.ci && c.ci[1] < -EPSILON ? ` (hybrid below ${which})` : '';
      return `${which} ${f(c.mrr)}, Δ ${signed(c.delta)} [${c.ci ? `${signed(c.ci[0])}, ${signed(c.ci[1])}` : '–'}], ${c.higher} higher / ${c.lower} lower${below}`;
    };
    return `  ${name}, ${label} (${g.n}): hybrid ${f(g.hybrid)}; ${part('lexical')}; ${part('dense')}`;
  }));
  return lines.length ? ['hybrid against each part alone (same queries; Δ = hybrid MRR − part MRR [95% interval, turns resampled 2,000 times]; turns where hybrid ranks the gold passage higher / lower):', ...lines] : [];
}

const COLORS: Record<Strategy, string> = { raw: '#9aa0a6', concat: '#c58af9', window: '#f6aea9', rules: '#1a73e8', hedged: '#188038', expand: '#d93025', llm: '#e37400', 'llm-expand': '#f9ab00', oracle: '#202124' };

const esc = (s: string) => s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c] ?? c);

/** Grouped bars: MRR per turn kind (groups) and strategy (bars), values printed on the bars. */
export function svgChart(report: EvalReport): string {
  const names = (Object.keys(report.strategies) as Strategy[]).filter((n) => report.strategies[n]?.kinds);
  const width = 860;
  const height = 420;
  const m = { top: 56, right: 20, bottom: 64, left: 52 };
  const plotW = width - m.left - m.right;
  const plotH = height - m.top - m.bottom;
  const groupW = plotW / KINDS.length;
  const barW = Math.min(28, (groupW - 24) / Math.max(1, names.length));
  const y = (v: number) => m.top + plotH - v * plotH;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="${m.left}" y="22" font-size="16" font-weight="600">MRR@${report.depth} by turn kind and strategy</text>`,
    `<text x="${m.left}" y="40" fill="#5f6368">${esc(`${report.data} · ${report.retrieval} retrieval · ${report.model}`)}</text>`,
  ];
  for (let t = 0; t <= 5; t++) {
    const v = t / 5;
    parts.push(`<line x1="${m.left}" x2="${width - m.right}" y1="${y(v)}" y2="${y(v)}" stroke="#e8eaed"/>`, `<text x="${m.left - 8}" y="${y(v) + 4}" text-anchor="end" fill="#5f6368">${v.toFixed(1)}</text>`);
  }
  KINDS.forEach((kind, g) => {
    const x0 = m.left + g * groupW + (groupW - barW * names.length) / 2;
    names.forEach((name, i) => {
      const v = (report.strategies[name] as StrategyReport).kinds?.[kind].mrr ?? 0;
      const x = x0 + i * barW;
      parts.push(`<rect x="${x.toFixed(1)}" y="${y(v).toFixed(1)}" width="${(barW - 3).toFixed(1)}" height="${(plotH * v).toFixed(1)}" fill="${COLORS[name]}"><title>${name} · ${kind}: ${v.toFixed(3)}</title></rect>`);
      parts.push(`<text x="${(x + (barW - 3) / 2).toFixed(1)}" y="${(y(v) - 4).toFixed(1)}" text-anchor="middle" font-size="9" fill="#3c4043">${v.toFixed(2).replace(/^0/, '')}</text>`);
    });
    const n = (report.strategies[names[0] as Strategy])?.kinds?.[kind].n ?? 0;
    parts.push(`<text x="${m.left + g * groupW + groupW / 2}" y="${height - m.bottom + 18}" text-anchor="middle" font-weight="600">${kind}</text>`, `<text x="${m.left + g * groupW + groupW / 2}" y="${height - m.bottom + 32}" text-anchor="middle" fill="#5f6368">n = ${n}</text>`);
  });
  names.forEach((name, i) => {
    const x = m.left + i * 110;
    parts.push(`<rect x="${x}" y="${height - 18}" width="12" height="12" fill="${COLORS[name]}"/>`, `<text x="${x + 16}" y="${height - 8}">${name}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n');
}
