/**
 * Starter questions from the loaded documents: for each of the first few, a
 * section heading near its title, asked as typed ("Refund window?"). Lexical
 * search only, so nothing is embedded to make them; a document whose title
 * finds nothing (or has no headings) offers its title.
 */
import type { DocumentInfo, Threadline } from '../../src/index';
import { h } from './dom';

export async function starterQuestions(tl: Threadline, docs: readonly DocumentInfo[], count = 3): Promise<string[]> {
  const picks = await Promise.all(docs.slice(0, count).map(async (doc) => {
    const title = doc.title ?? doc.id;
    const [hit] = await tl.search(title, { k: 1, mode: 'lexical', filter: { docIds: [doc.id] } });
    const heading = hit?.headingPath.at(-1);
    return `${heading && heading !== title ? heading : title}?`;
  }));
  return [...new Set(picks)];
}

/** The questions as buttons in `box` (hidden when there are none). */
export function renderStarters(box: HTMLElement, questions: readonly string[], ask: (question: string) => void): void {
  box.hidden = questions.length === 0;
  box.replaceChildren(...questions.map((q) => h('button', { type: 'button', onclick: () => ask(q) }, q)));
}
