/**
 * How each strategy turns a turn into a query, through the library's own
 * code: the same gate, condensers and expansion as a chat session.
 */
import { condenseWithSpecificity } from '../../src/chat/condense';
import { resolveAndExpand, type ExpandOptions } from '../../src/chat/expand';
import { asQuery } from '../../src/chat/searched-query';
import { decide } from '../../src/chat/rules/gate';
import { windowTurns } from '../../src/chat/memory';
import { condenseWithRules } from '../../src/chat/rules/rules-condenser';
import type { Specificity } from '../../src/chat/specificity';
import { NO_FORMS, type WrittenForm } from '../../src/chat/written-forms';
import type { HistoryTurn } from '../../src/chat/rules/topics';
import type { Llm } from '../../src/llm/llm';
import type { Query } from '../../src/retriever';
import type { Conversation, EvalTurn } from './data';
import { ablated, type Ablation } from './ablation';

export const ALL_STRATEGIES = ['raw', 'concat', 'window', 'rules', 'hedged', 'expand', 'llm', 'llm-expand', 'oracle'] as const;
/** The strategies that need a language model. */
export const LLM_STRATEGIES: readonly Strategy[] = ['llm', 'llm-expand'];
export type Strategy = (typeof ALL_STRATEGIES)[number];

export interface TurnContext { turn: EvalTurn; history: HistoryTurn[]; conversation: Conversation }

/**
 * A strategy's query for one turn, its resolved question when that differs
 * from the query's text (term resolution reads the question), and whether it
 * changed the turn (condensed or expanded).
 */
export interface StrategyQuery { query: Query; question?: string; changed: boolean; /** The gate's reason, where the strategy has a gate. */ reason?: string }

export function contexts(conversations: Conversation[]): TurnContext[] {
  return conversations.flatMap((conversation) => conversation.turns.map((turn, i) => ({
    turn, conversation, history: conversation.turns.slice(0, i).map((t) => ({ user: t.user, assistant: t.assistant })),
  })));
}

function rulesQuestion({ turn, history }: TurnContext): string {
  const decision = decide(turn.user, history.length > 0);
  return decision.action === 'condense' ? condenseWithRules(turn.user, history, decision).question : turn.user;
}

export async function strategyQuery(strategy: Strategy, c: TurnContext, specificity: Specificity, llm?: Llm, expand: ExpandOptions = {}, forms: WrittenForm = NO_FORMS, ablation?: Ablation): Promise<StrategyQuery> {
  const plain = (text: string) => ({ query: { text }, changed: text !== c.turn.user });
  const earlierUsers = c.history.map((h) => h.user);
  switch (strategy) {
    case 'raw': return plain(c.turn.user);
    case 'concat': return plain([...earlierUsers, c.turn.user].join(' '));
    case 'window': return plain([...earlierUsers.slice(-1), c.turn.user].join(' '));
    case 'rules': return plain(rulesQuestion(c));
    case 'hedged': {
      const text = rulesQuestion(c);
      return text === c.turn.user ? plain(text) : { query: { text, hedge: c.turn.user }, changed: true };
    }
    case 'expand': {
      const resolved = resolveAndExpand(c.turn.user, c.history, specificity, expand, forms);
      const r = ablation ? ablated(resolved, c.turn.user, c.history, ablation, expand) : resolved;
      return { query: asQuery(r.query), question: r.question, changed: r.decision.action === 'condense', reason: r.decision.reason };
    }
    // The chat session's own condensation with a language model (src/chat/condense.ts): the same gate, the
    // LLM's rewrite behind its guards, the zero-model condensation where the rewrite is rejected; 'llm-expand'
    // adds the conversation's weighted history words below an accepted rewrite (ChatOptions.llmExpansion).
    case 'llm':
    case 'llm-expand': {
      if (!llm) return plain(c.turn.user);
      const e = await condenseWithSpecificity(c.turn.user, c.history, windowTurns(c.history), specificity, { llm, mode: 'llm', llmExpansion: strategy === 'llm-expand', expand, forms });
      // Kept as typed, searched as the session searches it (the previous question may be ranked beside it).
      if (e.method === 'kept') return { query: asQuery(e.query), changed: false };
      return { query: asQuery(e.query), question: e.question, changed: true, reason: e.gate };
    }
    case 'oracle': return plain(c.turn.rewrite);
  }
}
