/**
 * Parses and checks an evaluation set from the text of its two files
 * (corpus.jsonl, optional, and conversations.jsonl; format:
 * shared/eval/README.md). Pure: the Node CLI and the playground's Evaluate
 * panel share it.
 */

export type TurnKind = 'first' | 'standalone' | 'followup';
/** `source`: the document a passage comes from (CAsT: the collection's document id); passages of one source are one document to the reading context. */
export interface Passage { id: string; text: string; source?: string }
export interface EvalTurn { id: string; user: string; rewrite: string; assistant: string; gold: string[]; kind: TurnKind }
export interface Conversation { id: string; turns: EvalTurn[] }

function jsonl<T>(file: string, text: string, check: (value: unknown, line: number) => T): T[] {
  return text.split('\n').map((l, i) => [l, i + 1] as const).filter(([l]) => l.trim())
    .map(([l, n]) => {
      let value: unknown;
      try { value = JSON.parse(l); } catch { throw new Error(`${file}:${n}: not valid JSON`); }
      return check(value, n);
    });
}

const str = (v: unknown, what: string): string => {
  if (typeof v !== 'string') throw new Error(`${what} must be a string`);
  return v;
};

/** `passages` is null for a set without corpus.jsonl (conversations only: gate and term resolution). */
export function parseEvalSet(corpusText: string | null, conversationsText: string): { passages: Passage[] | null; conversations: Conversation[] } {
  const passages = corpusText === null ? null : jsonl('corpus.jsonl', corpusText, (v, n) => {
    const p = v as Record<string, unknown>;
    return { id: str(p.id, `corpus.jsonl:${n} id`), text: str(p.text, `corpus.jsonl:${n} text`), ...(p.source !== undefined ? { source: str(p.source, `corpus.jsonl:${n} source`) } : {}) };
  });
  const ids = new Set((passages ?? []).map((p) => p.id));
  const conversations = jsonl('conversations.jsonl', conversationsText, (v, n) => {
    const c = v as { id?: unknown; turns?: unknown };
    if (!Array.isArray(c.turns)) throw new Error(`conversations.jsonl:${n}: turns must be an array`);
    return {
      id: str(c.id, `conversations.jsonl:${n} id`),
      turns: c.turns.map((t: Record<string, unknown>, i) => {
        const where = `conversations.jsonl:${n} turn ${i + 1}`;
        const kind = str(t.kind, `${where} kind`);
        if (!['first', 'standalone', 'followup'].includes(kind)) throw new Error(`${where}: kind must be first, standalone or followup`);
        const gold = Array.isArray(t.gold) ? t.gold.map((g) => str(g, `${where} gold`)) : [];
        for (const g of gold) if (!ids.has(g)) throw new Error(`${where}: gold passage ${g} is not in corpus.jsonl`);
        return { id: str(t.id, `${where} id`), user: str(t.user, `${where} user`), rewrite: str(t.rewrite, `${where} rewrite`), assistant: str(t.assistant ?? '', `${where} assistant`), gold, kind: kind as TurnKind };
      }),
    };
  });
  return { passages, conversations };
}
