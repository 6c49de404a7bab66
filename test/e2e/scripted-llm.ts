/**
 * A scripted fake Llm for pages under test, installed as window.threadlineLlm
 * by an init script (the playground offers it as "injected"). Condense calls
 * (system prompt "You rewrite…") map known follow-ups to standalone questions;
 * answer calls stream `answer` in word pieces.
 */
import type { Page } from 'playwright-core';

export const REWRITES: Record<string, string> = {
  'what about damaged items?': "what's the refund window for damaged items?",
  'and how long does that refund take?': 'how long does the refund take to be processed?',
};

export async function installScriptedLlm(page: Page, answer = 'The help pages answer this [1].'): Promise<void> {
  await page.addInitScript(({ rewrites, reply }) => {
    const calls: string[] = [];
    (window as unknown as { threadlineLlm: unknown; llmCalls: string[] }).llmCalls = calls;
    (window as unknown as { threadlineLlm: unknown }).threadlineLlm = {
      id: 'scripted-fake-llm',
      contextWindow: 4096,
      countTokens: (text: string) => (text.match(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu) ?? []).length,
      async *stream(messages: { role: string; content: string }[], options: { signal?: AbortSignal } = {}) {
        const system = messages[0]?.content ?? '';
        const last = messages.at(-1)?.content ?? '';
        const kind = system.startsWith('You rewrite') ? 'condense' : system.startsWith('You keep a short running summary') ? 'summary' : 'answer';
        calls.push(kind);
        let text = reply;
        if (kind === 'condense') {
          const question = /Last message: ([\s\S]*?)\n\nStandalone question:/.exec(last)?.[1] ?? last;
          text = rewrites[question.trim()] ?? question;
        } else if (kind === 'summary') {
          text = 'The user asked about refunds.';
        }
        for (const piece of text.split(/(?<=\s)/)) {
          await new Promise((r) => setTimeout(r, 5));
          if (options.signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
          yield piece;
        }
      },
    };
  }, { rewrites: REWRITES, reply: answer });
}
