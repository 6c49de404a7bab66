/** The public types of a chat session: options, events and stored turns. */
import type { SearchHit } from '../retrieval/memory-index';
import type { WeightedTerm } from '../retriever';
import type { Citation } from './citations';
import type { ExtractivePassage } from './extractive';
import type { GateReason } from './rules/gate';
import type { MemoryOptions } from './memory';

export type CondenseMode = 'auto' | 'rules' | 'llm' | 'off';
export type AnswerMode = 'generated' | 'extractive' | 'abstained' | 'smalltalk';

export interface ChatOptions {
  /** Resume this stored session, or start one with this id. @default a new random id */
  sessionId?: string;
  /**
   * Read only the latest this many turns when the session opens (and the first, which the condenser reads for the
   * conversation's topic); `history()` returns those, and `earlier()` reads the rest on demand. Condensing and
   * prompts read what they would from the whole conversation: at least the latest 15 turns and `memory.turns` are
   * read, whatever this says. For a chat page that shows the latest turns of what may be a very long conversation
   * (`<threadline-chat>` reads 30). @default every turn
   */
  latestTurns?: number;
  /** How much history the prompts carry. @default { kind: 'window', turns: 6, maxTokens: 1024 } */
  memory?: MemoryOptions;
  /**
   * `'auto'`: the LLM when one is loaded, else rules; `'rules'`: the
   * zero-model condenser (resolve with the conversation, then add its
   * specific words at low weights; see README, Quality) even with an LLM;
   * `'llm'` (rules when there is no LLM); `'off'`: retrieve with the question as typed.
   * @default 'auto'
   */
  condense?: CondenseMode;
  /**
   * Below an accepted LLM rewrite, also search the conversation's specific
   * words at their history weights, as the zero-model condenser does
   * (HQE-style expansion). Off by default until it measures better with real
   * models: the playground's Evaluate panel reports it as `llm-expand` beside `llm`.
   * @default false
   */
  llmExpansion?: boolean;
  /** Also retrieve with the question as typed and fuse the ranks, so a bad rewrite cannot bury a good hit. @default false (see CHAT_DEFAULTS) */
  hedge?: boolean;
  /**
   * A turn asked while the embedding model is still downloading: `'lexical'` waits at most 250 ms for it, then
   * searches by words alone and says so (`sources.lexicalOnly`); `'wait'` waits for the model, however long its
   * download takes. @default 'lexical' (see CHAT_DEFAULTS)
   */
  modelPending?: 'lexical' | 'wait';
  /** Passages per turn. @default 5 */
  k?: number;
  /**
   * How answer prompts are laid out. `'kv-stable'` resends earlier turns
   * exactly as they were sent (passages and raw replies included) while that
   * stays within one history budget of the compact prompt, so an engine that
   * reuses its KV cache for an extended conversation prefills only the new
   * turn; past the budget it falls back to `'compact'` (system, bare history
   * window, then passages and question), which is always bounded.
   * @default 'kv-stable'
   */
  promptLayout?: 'kv-stable' | 'compact';
  /**
   * Abstain (no answer, say so) when no passage shares a word with the
   * question and the best cosine similarity is below `minDense`, or when no
   * retrieved passage holds `minCoverage` of the searched question's
   * information (its words weighted by how rare they are in the documents;
   * `SearchHit.coverage`). `minCoverage: 0` turns the second test off.
   * @default { minDense: 0.3, minCoverage: 0.2 }
   */
  abstain?: { minDense?: number; minCoverage?: number };
}

export interface TurnTimings {
  condenseMs: number;
  retrieveMs: number;
  /** Time to the first token (generated), or to the answer (other modes). */
  firstTokenMs: number;
  totalMs: number;
}

export type TurnEvent =
  | {
    type: 'condensed';
    /** The user's words, as typed. */
    original: string;
    /** The question resolved with the conversation (as typed when kept). */
    question: string;
    /**
     * What was searched: `text` is embedded and its words weigh 1 in BM25;
     * `terms` are words of the conversation added below that ("refund 0.5,
     * window 0.3"), empty when none; `hedge`, when the condenser resolved a
     * pronoun, an ellipsis, a bridging definite or a comparative by a guess: another
     * reading in the user's words (for a pronoun the previous question with this one,
     * for an ellipsis the fragment as typed, for a bridging definite or a comparative
     * the question as typed), ranked
     * too and fused at `hedgeWeight` (the resolved question's ranking weighs 1);
     * and for a later question kept as typed (`self-contained`), the previous
     * question with this one, at 0.15.
     */
    query: { text: string; terms: WeightedTerm[]; hedge?: string; hedgeWeight?: number };
    method: 'kept' | 'rules' | 'llm';
    /** The gate's machine-readable reason. */
    gate: GateReason;
    /** A readable account of what was done. */
    reason: string;
    /** Why an LLM rewrite was not used, when the rules stood in. */
    fallback?: string;
  }
  | {
    type: 'sources';
    chunks: SearchHit[];
    /**
     * What the search was hedged with, when it was: another text ranked too and
     * fused below the searched question's ranking at `weight` (the question as
     * typed with `hedge: true`; otherwise the condenser's hedge, see `condensed.query`).
     */
    hedged?: { text: string; weight: number };
    /**
     * The reading context searched near, when there was one: the document of
     * the passage the previous answer quoted first (`label`), whose other
     * chunks were favoured; that passage itself was not.
     */
    reading?: { docId: string; label: string };
    /**
     * Ranked by words alone: the embedding model was still downloading (a first visit on a slow connection), and
     * the turn did not wait for it (SearchOptions.modelPending). Later turns search with it once it has arrived.
     */
    lexicalOnly?: true;
  }
  | { type: 'token'; text: string }
  | {
    type: 'done';
    answer: string;
    mode: AnswerMode;
    citations: Citation[];
    /** Citation numbers the model invented; removed from `answer`. */
    invalidCitations: number[];
    /** The passages and highlighted sentences of an extractive answer. */
    extractive?: ExtractivePassage[];
    /** Set when the LLM failed before answering and the extractive answer stood in. */
    fallback?: 'llm-error';
    timings: TurnTimings;
  };

export interface Turn {
  user: string;
  assistant: string;
  mode: AnswerMode;
  citations: { n: number; docId: string; label: string; url?: string }[];
  at: number;
}
