/**
 * The turn loop of a chat UI, shared by <threadline-chat> and the playground
 * (and any page that builds its own chat from `threadline/render`): Enter
 * asks; Stop or Escape aborts; while a turn runs the input and Ask are
 * disabled and Stop is shown; the turn's TurnView joins the log and the
 * scroller follows it; a stopped or failed turn is labelled where it stands
 * (what streamed stays visible; the session saves nothing of it). What is
 * particular to a page (a trace under each turn, progress bars, DOM events)
 * comes in through hooks.
 */
import { markLongLog } from './long-log';
import type { ChatSession } from '../chat/session';
import type { TurnEvent } from '../chat/types';
import { ThreadlineError, toThreadlineError } from '../errors';
import { followTurn } from './follow-turn';
import { TurnView, type TurnViewOptions } from './turn-view';

export interface ChatControls {
  form: HTMLFormElement;
  input: HTMLInputElement;
  ask: HTMLButtonElement;
  stop: HTMLButtonElement;
  /** Turns are appended here. */
  log: HTMLElement;
  /** What scrolls to follow a turn: the log, or `document.scrollingElement` where the page scrolls. @default log */
  scroller?: Element;
}

export interface ChatHooks {
  /** The session questions go to; null while none is open (asking does nothing). */
  session(): ChatSession | null;
  /** Options for each new turn's view (read per turn: a page may change them). */
  viewOptions?(): TurnViewOptions;
  /** A new turn's view, appended and not yet streaming (a page adds its own parts under it). */
  started?(view: TurnView, question: string): void;
  /** Every event of the turn, after the view has shown it. */
  event?(event: TurnEvent, view: TurnView): void;
  /** The turn failed or was stopped (`error.code === 'ABORTED'`); the view already says so. */
  failed?(error: ThreadlineError, view: TurnView): void;
  /** A turn started (true) or ended (false), whatever its outcome. */
  busy?(busy: boolean): void;
}

export class ChatController {
  private turn: AbortController | null = null;
  private enabled = false;

  constructor(private readonly controls: ChatControls, private readonly hooks: ChatHooks) {
    const { form, input, stop } = controls;
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const question = input.value.trim();
      if (question) void this.ask(question);
    });
    // The first keystrokes warm the search's code (ChatSession.warm), so the first question does not wait for it to compile.
    input.addEventListener('input', () => this.hooks.session()?.warm(input.value));
    stop.addEventListener('click', () => this.abort());
    form.addEventListener('keydown', (event) => { if (event.key === 'Escape') this.abort(); });
    this.apply();
  }

  /** True while a turn runs. */
  get busy(): boolean {
    return this.turn !== null;
  }

  /** Lets the user ask (false while the page loads or has no session); a running turn keeps asking off. */
  enable(enabled: boolean): void {
    this.enabled = enabled;
    this.apply();
  }

  /** Stops the running turn, if any. */
  abort(): void {
    this.turn?.abort();
  }

  /** Asks `question` in the current session; resolves when the turn has ended, however it ended. */
  async ask(question: string): Promise<void> {
    const session = this.hooks.session();
    if (!session || this.turn) return;
    const turn = new AbortController();
    this.turn = turn;
    const { input, log } = this.controls;
    input.value = '';
    this.apply();
    this.controls.stop.focus();
    this.hooks.busy?.(true);
    const view = new TurnView(question, this.hooks.viewOptions?.() ?? {});
    log.append(view.element);
    markLongLog(log);
    this.hooks.started?.(view, question);
    const follow = followTurn(this.controls.scroller ?? log, view.element);
    try {
      for await (const event of session.ask(question, { signal: turn.signal })) {
        view.update(event);
        if (event.type === 'token' || event.type === 'done') follow();
        this.hooks.event?.(event, view);
      }
    } catch (error) {
      // A turn stopped by its signal is "stopped", whatever the step that noticed threw.
      const failure = turn.signal.aborted ? new ThreadlineError('ABORTED', 'The turn was stopped.', { cause: error }) : toThreadlineError(error, 'INTERNAL');
      view.fail(failure.code === 'ABORTED' ? 'Stopped. This turn was not saved.' : `Failed: ${failure.message}`);
      this.hooks.failed?.(failure, view);
    } finally {
      follow.stop();
      this.turn = null;
      this.apply();
      input.focus({ preventScroll: true });
      this.hooks.busy?.(false);
    }
  }

  private apply(): void {
    const { input, ask, stop } = this.controls;
    input.disabled = ask.disabled = !this.enabled || this.turn !== null;
    stop.hidden = this.turn === null;
  }
}
