import { describe, expect, it } from 'vitest';
import type { ChatSession } from '../../src/chat/session';
import type { TurnEvent } from '../../src/chat/types';
import { ThreadlineError } from '../../src/errors';
import { ChatController, type ChatHooks } from '../../src/render/chat-controller';

/** A scripted session (fake at the ChatSession seam): streams tokens until released, or throws. */
function fakeSession(script: { tokens: string[]; fail?: ThreadlineError }) {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => { release = resolve; });
  const asked: string[] = [];
  const warmed: string[] = [];
  const session = {
    warm(text: string): void {
      warmed.push(text);
    },
    async *ask(question: string, options: { signal?: AbortSignal } = {}): AsyncGenerator<TurnEvent> {
      asked.push(question);
      for (const text of script.tokens) yield { type: 'token', text };
      await new Promise<void>((resolve, reject) => {
        void gate.then(resolve);
        options.signal?.addEventListener('abort', () => reject(new ThreadlineError('ABORTED', 'aborted')));
      });
      if (script.fail) throw script.fail;
      yield { type: 'done', answer: script.tokens.join(''), mode: 'generated', citations: [], invalidCitations: [], timings: { condenseMs: 0, retrieveMs: 0, firstTokenMs: 0, totalMs: 0 } };
    },
  };
  return { session: session as unknown as ChatSession, asked, warmed, release: () => release() };
}

function controls() {
  const form = document.createElement('form');
  const input = Object.assign(document.createElement('input'), { type: 'text' });
  const ask = Object.assign(document.createElement('button'), { type: 'submit' });
  const stop = Object.assign(document.createElement('button'), { type: 'button' });
  const log = document.createElement('ol');
  form.append(input, ask, stop);
  document.body.append(log, form);
  return { form, input, ask, stop, log };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('ChatController (fake ChatSession)', () => {
  it('typing warms the session with what is typed (ChatSession.warm, which runs once itself); with no session, typing does nothing', () => {
    const ui = controls();
    const fake = fakeSession({ tokens: [] });
    let session: ChatSession | null = null;
    new ChatController(ui, { session: () => session }).enable(true);
    const type = (value: string) => { ui.input.value = value; ui.input.dispatchEvent(new Event('input', { bubbles: true })); };
    type('w');
    session = fake.session;
    type('wh');
    type('wha');
    expect(fake.warmed).toEqual(['wh', 'wha']);
  });

  it('asks on submit, is busy while the turn runs (input and Ask off, Stop shown), ignores a second question, and ends ready', async () => {
    const ui = controls();
    const fake = fakeSession({ tokens: ['Thirty ', 'days.'] });
    const events: string[] = [];
    const busy: boolean[] = [];
    const hooks: ChatHooks = { session: () => fake.session, event: (e) => events.push(e.type), busy: (b) => busy.push(b) };
    const chat = new ChatController(ui, hooks);
    expect(ui.input.disabled).toBe(true); // not enabled yet
    chat.enable(true);
    ui.input.value = '  what is the refund window?  ';
    ui.form.requestSubmit();
    await settle();
    expect(fake.asked).toEqual(['what is the refund window?']);
    expect({ busy: chat.busy, input: ui.input.disabled, ask: ui.ask.disabled, stop: ui.stop.hidden, value: ui.input.value }).toEqual({ busy: true, input: true, ask: true, stop: false, value: '' });
    void chat.ask('a second question');
    fake.release();
    await settle();
    expect(fake.asked).toHaveLength(1);
    expect(ui.log.querySelector('.tl-answer')?.textContent).toBe('Thirty days.');
    expect(events).toEqual(['token', 'token', 'done']);
    expect(busy).toEqual([true, false]);
    expect({ busy: chat.busy, input: ui.input.disabled, stop: ui.stop.hidden }).toEqual({ busy: false, input: false, stop: true });
  });

  it('Escape in the form stops the turn: labelled "Stopped", what streamed stays, the failure hook gets ABORTED', async () => {
    const ui = controls();
    const fake = fakeSession({ tokens: ['Partial '] });
    const failures: string[] = [];
    const chat = new ChatController(ui, { session: () => fake.session, failed: (e) => failures.push(e.code) });
    chat.enable(true);
    const turn = chat.ask('q');
    await settle();
    ui.input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await turn;
    expect(failures).toEqual(['ABORTED']);
    expect(ui.log.querySelector('.tl-mode')?.textContent).toBe('Stopped. This turn was not saved.');
    expect(ui.log.querySelector('.tl-answer')?.textContent).toBe('Partial');
    expect(chat.busy).toBe(false);
  });

  it('a failed turn is labelled with its message; without a session, asking does nothing', async () => {
    const ui = controls();
    const fake = fakeSession({ tokens: [], fail: new ThreadlineError('LLM_FAILED', 'The model crashed') });
    let session: ChatSession | null = null;
    const chat = new ChatController(ui, { session: () => session });
    chat.enable(true);
    await chat.ask('q');
    expect(ui.log.childElementCount).toBe(0);
    session = fake.session;
    const turn = chat.ask('q');
    fake.release();
    await turn;
    expect(ui.log.querySelector('.tl-mode')?.textContent).toBe('Failed: The model crashed');
  });
});
