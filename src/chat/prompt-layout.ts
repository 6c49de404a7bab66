/**
 * How answer prompts are laid out across turns. `kv-stable` resends earlier
 * turns exactly as they were sent (passages and raw replies included) while
 * that stays within one history budget of the compact prompt, so an engine
 * that reuses its KV cache prefills only the new turn; otherwise the compact
 * prompt (system, bare history window, passages and question), always bounded.
 */
import type { ChatMessage } from '../llm/llm';
import type { SearchHit } from '../retrieval/memory-index';
import { estimateTokens, MEMORY_DEFAULTS, type CountTokens, type MemoryOptions } from './memory';
import { answerMessages } from './prompts';
import type { HistoryTurn } from './rules/topics';

export class PromptLayout {
  /** The answer conversation exactly as last sent, reply included; null when it cannot be extended. */
  private conversation: ChatMessage[] | null = null;

  constructor(
    private readonly layout: 'kv-stable' | 'compact',
    private readonly memory: MemoryOptions,
    private readonly count: CountTokens = estimateTokens,
  ) {}

  /** The prompt for this turn. */
  build(question: string, hits: readonly SearchHit[], window: readonly HistoryTurn[], summary: string | undefined): ChatMessage[] {
    const compact = answerMessages(question, hits, window, summary);
    const previous = this.conversation;
    this.conversation = null; // only a completed reply makes the conversation reusable
    if (this.layout !== 'kv-stable' || !previous) return compact;
    const { turns, maxTokens } = { ...MEMORY_DEFAULTS, ...this.memory };
    const extended = [...previous, compact.at(-1) as ChatMessage];
    const size = (messages: ChatMessage[]) => messages.reduce((n, m) => n + this.count(m.content), 0);
    const carried = extended.filter((m) => m.role === 'assistant').length;
    return carried <= turns && size(extended) <= size(compact) + maxTokens ? extended : compact;
  }

  /** Records a completed reply to `prompt`, so the next prompt may extend it. */
  completed(prompt: ChatMessage[], answer: string): void {
    if (this.layout === 'kv-stable') this.conversation = [...prompt, { role: 'assistant', content: answer }];
  }

  /** Forgets the sent conversation (the history changed under us: another handle, a reset). */
  reset(): void {
    this.conversation = null;
  }
}
