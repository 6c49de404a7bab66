/**
 * Parses and checks an evaluation set from the text of its two files
 * (corpus.jsonl, optional, and conversations.jsonl; format:
 * shared/eval/README.md). Pure: the Node CLI and the playground's Evaluate
 * panel share it. A set that would give wrong figures rather than none (a
 * passage id twice, so a ranking holds the gold passage twice and R@10 reads
 * 2) is refused with the line that breaks it.
 */

export type TurnKind = 'first' | 'standalone' | 'followup';
/** `source`: the document a passage comes from (CAsT: the collection's document id); passages of one source are one document to the reading context. */
export interface Passage { id: string; text: string; source?: string }
export interface EvalTurn { id: string; user: string; rewrite: string; assistant: string; gold: string[]; kind: TurnKind }
export interface Conversation { id: string; turns: EvalTurn[] }

function jsonl<T>(file: string, text: string, check: (value: Record<string, unknown>, line: number) => T): T[] {
  // A byte-order mark, as Windows editors write one, is no part of the first line.
  return text.replace(/^\uFEFF/, '').split('\n').map((l, i) => [l, i + 1] as const).filter(([l]) => l.trim())
    .map(([l, n]) => {
      let value: unknown;
      try { value = JSON.parse(l); } catch { throw new Error(`${file}:${n}: not valid JSON`); }
      return check(record(value, `${file}:${n}`), n);
    });
}

function record(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${what}: must be a JSON object`);
  return value as Record<string, unknown>;
}

const str = (v: unknown, what: string): string => {
  if (typeof v !== 'string') throw new Error(`${what} must be a string`);
  return v;
};

/** Ids are keys: a ranking, a report's turns and `eval:dev compare` each find a passage or turn by its id. */
function unique(seen: Map<string, string>, id: string, what: string, where: string): string {
  const first = seen.get(id);
  if (first !== undefined) throw new Error(`${where}: ${what} ${JSON.stringify(id)} repeats ${first}`);
  seen.set(id, where);
  return id;
}

/** `passages` is null for a set without corpus.jsonl (conversations only: gate and term resolution). */
export function parseEvalSet(corpusText: string | null, conversationsText: string): { passages: Passage[] | null; conversations: Conversation[] } {
  const passageIds = new Map<string, string>();
  const passages = corpusText === null ? null : jsonl('corpus.jsonl', corpusText, (p, n) => {
    const where = `corpus.jsonl:${n}`;
    return { id: unique(passageIds, str(p.id, `${where} id`), 'passage id', where), text: str(p.text, `${where} text`), ...(p.source !== undefined ? { source: str(p.source, `${where} source`) } : {}) };
  });
  const conversationIds = new Map<string, string>();
  const turnIds = new Map<string, string>();
  const conversations = jsonl('conversations.jsonl', conversationsText, (c, n) => {
    if (!Array.isArray(c.turns)) throw new Error(`conversations.jsonl:${n}: turns must be an array`);
    return {
      id: unique(conversationIds, str(c.id, `conversations.jsonl:${n} id`), 'conversation id', `conversations.jsonl:${n}`),
      turns: c.turns.map((value: unknown, i) => {
        const where = `conversations.jsonl:${n} turn ${i + 1}`;
        const t = record(value, where);
        const kind = str(t.kind, `${where} kind`);
        if (!['first', 'standalone', 'followup'].includes(kind)) throw new Error(`${where}: kind must be first, standalone or followup`);
        if (t.gold !== undefined && !Array.isArray(t.gold)) throw new Error(`${where}: gold must be an array of passage ids`);
        const gold = Array.isArray(t.gold) ? t.gold.map((g) => str(g, `${where} gold`)) : [];
        // Without a corpus nothing is ranked; gold ids then mean corpus.jsonl was left out of the folder.
        if (passages === null && gold.length > 0) throw new Error(`${where}: gold passages are listed, but the set has no corpus.jsonl`);
        for (const g of gold) if (!passageIds.has(g)) throw new Error(`${where}: gold passage ${g} is not in corpus.jsonl`);
        return { id: unique(turnIds, str(t.id, `${where} id`), 'turn id', where), user: str(t.user, `${where} user`), rewrite: str(t.rewrite, `${where} rewrite`), assistant: str(t.assistant ?? '', `${where} assistant`), gold, kind: kind as TurnKind };
      }),
    };
  });
  return { passages, conversations };
}
