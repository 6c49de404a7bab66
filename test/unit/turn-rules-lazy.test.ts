import 'fake-indexeddb/auto';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChatSession as Session } from '../../src/chat/session';
import type { TurnEvent } from '../../src/chat/types';
import { SessionStore } from '../../src/storage/session-store';
import type { RetrievalEngine } from '../../src/worker/retrieval-engine';
import { sampleEngine } from '../fixtures/engine';

let engine: RetrievalEngine;
let unique = 0;

beforeAll(async () => {
  engine = await sampleEngine('turn-rules-kb');
});
afterEach(() => {
  vi.doUnmock('../../src/chat/turn-rules');
  vi.resetModules();
});

async function run(chat: Session, text: string): Promise<TurnEvent[]> {
  const events: TurnEvent[] = [];
  for await (const e of chat.ask(text)) events.push(e);
  return events;
}
const condensed = (events: TurnEvent[]) => events.find((e): e is Extract<TurnEvent, { type: 'condensed' }> => e.type === 'condensed');

describe("the condenser's code: bundled with the library, fetched when first needed by the standalone element (turn-rules-loader.ts)", () => {
  it('the library and threadline/element provide it with the page: sessions use it and never import it themselves', async () => {
    vi.resetModules();
    const { bundleTurnRules } = await import('../../src/chat/turn-rules-bundled');
    const { loadedTurnRules } = await import('../../src/chat/turn-rules-loader');
    expect(loadedTurnRules()).toBeUndefined();
    bundleTurnRules();
    expect(loadedTurnRules()).toBe(await import('../../src/chat/turn-rules'));
    // An import of the chunk would fail from here on: a follow-up condensed by the rules used the provided module.
    vi.doMock('../../src/chat/turn-rules', () => { throw new TypeError('Failed to fetch dynamically imported module: turn-rules.js'); });
    const { ChatSession } = await import('../../src/chat/session');
    const chat = await ChatSession.open(await SessionStore.open(`lazy-${unique++}`), engine, undefined, {});
    const events = await run(chat, 'hello');
    expect(events.find((e) => e.type === 'done')).toMatchObject({ mode: 'smalltalk' });
    await run(chat, "what's the refund window?");
    expect(condensed(await run(chat, 'what about damaged items?'))).toMatchObject({ method: 'rules', gate: 'ellipsis' });
    // Both entries call it at their top level, where a bundler that skips side-effect-free modules still runs it.
    const { readFileSync } = await import('node:fs');
    for (const entry of ['src/index.ts', 'src/element.ts']) expect(readFileSync(entry, 'utf8')).toMatch(/^bundleTurnRules\(\);$/m);
  });

  it('not provided, a first turn does not wait for it; a later turn condenses with it', async () => {
    vi.resetModules();
    const { ChatSession } = await import('../../src/chat/session'); // a page that has not fetched it yet
    const chat = await ChatSession.open(await SessionStore.open(`lazy-${unique++}`), engine, undefined, {});
    const first = await run(chat, "what's the refund window?");
    expect(condensed(first)).toMatchObject({ method: 'kept', gate: 'first-turn', question: "what's the refund window?" });
    expect(first.at(-1)).toMatchObject({ type: 'done', mode: 'extractive' });
    expect(condensed(await run(chat, 'what about damaged items?'))).toMatchObject({ method: 'rules', gate: 'ellipsis' });
  });

  it('not provided, small talk as a first message is still answered as small talk, without the condenser’s code', async () => {
    vi.resetModules();
    vi.doMock('../../src/chat/turn-rules', () => { throw new TypeError('Failed to fetch dynamically imported module: turn-rules.js'); });
    const { ChatSession } = await import('../../src/chat/session');
    const chat = await ChatSession.open(await SessionStore.open(`lazy-${unique++}`), engine, undefined, {});
    const events = await run(chat, 'hello');
    expect(events.find((e) => e.type === 'done')).toMatchObject({ mode: 'smalltalk' });
    expect(events.some((e) => e.type === 'sources')).toBe(false);
  });

  it('where it cannot be fetched, a follow-up is searched as typed and says so, and a later turn tries again', async () => {
    vi.resetModules();
    vi.doMock('../../src/chat/turn-rules', () => { throw new TypeError('Failed to fetch dynamically imported module: turn-rules.js'); });
    const { ChatSession } = await import('../../src/chat/session');
    const chat = await ChatSession.open(await SessionStore.open(`lazy-${unique++}`), engine, undefined, {});
    await run(chat, "what's the refund window?");
    const offline = await run(chat, 'what about damaged items?');
    expect(condensed(offline)).toMatchObject({ method: 'kept', gate: 'condenser-unavailable', question: 'what about damaged items?' });
    expect(offline.at(-1)).toMatchObject({ type: 'done' });
    // Where a failed import is not kept (Node here; Chromium keeps it for the page's life: test/e2e/element.test.ts reloads).
    vi.doUnmock('../../src/chat/turn-rules'); // the connection is back
    vi.resetModules();
    expect(condensed(await run(chat, 'what about damaged items?'))).toMatchObject({ method: 'rules', gate: 'ellipsis' });
  });
});
