/**
 * <threadline-chat>: a framework-free chat box over a threadline index, in a
 * shadow root themed through --threadline-* custom properties.
 *
 *   <threadline-chat index="/site.tlix" llm="auto"></threadline-chat>
 *
 * Attributes (a change restarts the element):
 *   index     URL of a prebuilt index (`threadline index … -o site.tlix`), loaded once and kept in IndexedDB
 *   embedder  embedding model (hub id or folder URL); must be the model the index was built with
 *   llm       "none" (default: rules + extractive answers), "auto" (WebLLM's default pair where WebGPU
 *             works) or a web-llm model id; the model downloads on the first question, not on page load
 *   name      IndexedDB namespace @default "threadline-chat", or "threadline-chat <path of the index file>" when
 *             that name holds another file's index (pages of one origin with different index files)
 *   placeholder  the input's placeholder
 *   mode      "inline" (default) or "launcher": a corner button that opens the chat (full screen on a phone);
 *             nothing loads until the first open
 * The `llm` property takes any `Llm` object instead (set it before the
 * element is connected, or it restarts). Events: `threadline-ready`,
 * `threadline-turn` (every TurnEvent), `threadline-error` ({ code, message }).
 */
import type { ChatSession } from '../chat/session';
import type { EmbedderDtype } from '../embedding/embedder-options';
import { isThreadlineError, ThreadlineError } from '../errors';
import type { Llm } from '../llm/llm';
import type { LlmOption } from '../llm/resolve-llm';
import type { Progress } from '../progress';
import { ChatController } from '../render/chat-controller';
import { TurnView, type TurnViewOptions } from '../render/turn-view';
import { restoreTurns } from '../render/restored-log';
import { isRetryable } from '../retryable';
import { createThreadline, type Threadline } from '../threadline';
import { buildChatDom, type ChatDom } from './chat-dom';
import { FULL_SCREEN, wrapFocus } from './launcher';
import { DEFAULT_NAME, indexSource, nameForIndex, rememberName, rememberedName } from './index-name';
import { renderSuggestions } from './suggestions';

/** Turns of a resumed conversation read and shown when the chat opens; earlier ones behind the log's button. */
const RESTORED_AT_ONCE = 30;

const ATTRIBUTES = ['index', 'embedder', 'dtype', 'llm', 'name', 'placeholder', 'link-hosts', 'suggestions', 'mode', 'open'] as const;

function llmOption(value: string | null): LlmOption {
  const v = value?.trim() ?? '';
  if (v === '' || v === 'none' || v === 'off') return undefined;
  return v === 'auto' ? { preload: false } : { model: v, condenserModel: false, preload: false };
}

function message(error: unknown): { code: string; message: string } {
  if (isThreadlineError(error)) return { code: error.code, message: error.message };
  return { code: 'INTERNAL', message: error instanceof Error ? error.message : String(error) };
}

/**
 * HTMLElement in a browser. Where there is none (a server render of a page that imports `threadline/element`:
 * SvelteKit, Astro's frontmatter, VitePress's build), a stand-in, so that the import succeeds and defines nothing.
 */
const ElementBase: typeof HTMLElement = typeof HTMLElement === 'function' ? HTMLElement : (class {} as unknown as typeof HTMLElement);

export class ThreadlineChat extends ElementBase {
  static readonly observedAttributes = ATTRIBUTES;
  /** The embedding model used when no `embedder` attribute is given (the standalone bundle points it next to itself). */
  static defaultEmbedder: string | undefined;

  private instance: Threadline | null = null;
  private session: ChatSession | null = null;
  private llmObject: Llm | undefined;
  private generation = 0;
  /** Aborts the createThreadline() in flight, if any. */
  private opening: AbortController | null = null;
  private started: Promise<void> | null = null;
  private readyStatus = '';
  /** The status while a question the page closed on waits in the box; the next turn clears it. */
  private unansweredStatus = '';
  /** Why the configured language model is not in use, when it is not. */
  private llmNote = '';
  private readonly ui: ChatDom;
  private readonly chat: ChatController;
  /** The full-screen query, watched while connected: a phone turned on its side, or a window resized, moves the panel across it. */
  private screen: MediaQueryList | null = null;
  private readonly screenChanged = (): void => { if (this.hasAttribute('open')) this.labelPanel(); };

  constructor() {
    super();
    this.ui = buildChatDom(this.attachShadow({ mode: 'open' }));
    const { fresh, panel, launcher, close } = this.ui;
    launcher.addEventListener('click', () => this.open());
    close.addEventListener('click', () => this.close());
    // Escape stops a running answer first (the controller); with none, it closes a launcher's panel.
    panel.addEventListener('keydown', (event) => { if (event.key === 'Escape' && !this.chat.busy) this.close(); });
    wrapFocus(panel, this.shadowRoot as ShadowRoot, () => this.fullScreen());
    fresh.addEventListener('click', () => void this.newConversation());
    this.ui.retry.addEventListener('click', () => this.restart());
    this.chat = new ChatController(this.ui, {
      session: () => this.session,
      viewOptions: () => this.viewOptions(),
      started: () => {
        this.ui.suggestions.hidden = true;
        if (this.unansweredStatus) {
          this.unansweredStatus = '';
          if (this.ui.status.dataset.state !== 'error') this.setStatus(this.readyStatus);
        }
        // The page itself scrolls the panel into view once, for a visitor who asked from far below or above it.
        this.ui.form.scrollIntoView?.({ block: 'nearest' });
      },
      event: (event) => this.emit('threadline-turn', event),
      failed: (error) => this.emit('threadline-error', { code: error.code, message: error.message }),
      busy: (busy) => { this.ui.fresh.disabled = busy || !this.session; },
    });
  }

  /** A language model object to use instead of the `llm` attribute. */
  get llm(): Llm | undefined {
    return this.llmObject;
  }

  set llm(value: Llm | undefined) {
    this.llmObject = value;
    if (this.started) this.restart();
  }

  /** The running threadline instance (to add documents from the host page), once ready. */
  get threadline(): Threadline | null {
    return this.instance;
  }

  /** Resolves when the element is ready to answer (or has shown why it cannot). */
  get ready(): Promise<void> {
    return this.started ?? Promise.resolve();
  }

  connectedCallback(): void {
    // A value set on the element before it was upgraded is an own property shadowing the setter; re-apply it.
    if (Object.prototype.hasOwnProperty.call(this, 'llm')) {
      const value = (this as { llm?: Llm }).llm;
      delete (this as { llm?: Llm }).llm;
      this.llmObject = value;
    }
    // A microtask later, so attributes and properties set right after creation are seen. A launcher
    // loads nothing until it is first opened.
    queueMicrotask(() => { if (this.isConnected && !this.started && !this.waitsForOpen()) this.restart(); });
    // aria-modal follows the panel across the breakpoint while it is open (the Tab trap reads it live).
    this.screen = globalThis.matchMedia?.(FULL_SCREEN) ?? null;
    this.screen?.addEventListener('change', this.screenChanged);
    this.screenChanged();
  }

  disconnectedCallback(): void {
    this.screen?.removeEventListener('change', this.screenChanged);
    this.screen = null;
    queueMicrotask(() => { if (!this.isConnected) void this.stop(); });
  }

  attributeChangedCallback(name: string, previous: string | null, next: string | null): void {
    if (name === 'placeholder') this.ui.input.placeholder = next ?? '';
    else if (name === 'link-hosts') return; // read for each new turn
    else if (name === 'suggestions') this.showSuggestions();
    else if (name === 'mode') this.applyMode();
    else if (name === 'open') this.applyOpen();
    else if (previous !== next && this.started) this.restart();
  }

  /** Opens the chat (a launcher's panel); the first open starts the element. */
  open(): void {
    this.setAttribute('open', ''); // applyOpen(), through attributeChangedCallback
    void (this.started ?? Promise.resolve()).then(() => { if (this.hasAttribute('open')) this.ui.input.focus(); });
  }

  /**
   * The `open` attribute, however it is set: by open(), in the markup, or by the page's own script or framework
   * (`el.toggleAttribute('open')`, a binding). Before, only open() started the element, so a panel opened by its
   * attribute showed an empty, disabled chat for good.
   */
  private applyOpen(): void {
    if (!this.hasAttribute('open')) return;
    this.labelPanel();
    if (!this.started && this.isConnected) this.restart();
  }

  /** A launcher's panel is a dialog; an inline chat's is part of the page. */
  private labelPanel(): void {
    if (this.getAttribute('mode') === 'launcher') {
      this.ui.panel.setAttribute('role', 'dialog');
      this.ui.panel.setAttribute('aria-label', 'Ask the documents');
      // Modal where it covers the screen (a phone), read again when the screen changes; a floating panel leaves the page usable.
      this.ui.panel.setAttribute('aria-modal', String(this.fullScreen()));
    } else {
      this.ui.panel.removeAttribute('role');
      this.ui.panel.removeAttribute('aria-label');
      this.ui.panel.removeAttribute('aria-modal');
    }
  }

  /** Whether this is a launcher whose open panel covers the screen. */
  private fullScreen(): boolean {
    return this.getAttribute('mode') === 'launcher' && this.hasAttribute('open') && (this.screen?.matches ?? false);
  }

  /** Closes a launcher's panel; focus returns to its button. */
  close(): void {
    if (this.getAttribute('mode') !== 'launcher') return;
    this.removeAttribute('open');
    this.ui.launcher.focus();
  }

  private waitsForOpen(): boolean {
    return this.getAttribute('mode') === 'launcher' && !this.hasAttribute('open');
  }

  private applyMode(): void {
    if (this.getAttribute('mode') !== 'launcher' || this.hasAttribute('open')) this.labelPanel();
    if (this.isConnected && !this.started && !this.waitsForOpen()) this.restart();
  }

  private restart(): void {
    const stopped = this.stop();
    const generation = this.generation;
    this.started = stopped.then(() => this.start(generation));
  }

  private async stop(): Promise<void> {
    // Whatever start() is in flight is now stale: it neither shows its result nor keeps its instance.
    this.generation++;
    // An element removed or reconfigured while it opens stops its model download or index read at once.
    this.opening?.abort();
    this.opening = null;
    this.chat.abort();
    const instance = this.instance;
    this.instance = null;
    this.session = null;
    this.started = null;
    await instance?.dispose().catch(() => undefined);
  }

  private async start(generation: number): Promise<void> {
    const current = () => generation === this.generation;
    if (!current()) return; // a later restart or a removal came first
    // Once this start has failed, its progress is over: a download that finishes after the failure (the model loads
    // on in the worker) must not write "Downloading the search model: 100%" over the error and its reason.
    let failed = false;
    const live = () => current() && !failed;
    this.chat.enable(false);
    this.ui.fresh.disabled = true;
    this.ui.log.replaceChildren();
    this.llmNote = '';
    this.readyStatus = '';
    this.unansweredStatus = '';
    this.setStatus('Loading the search model…');
    this.ui.retry.hidden = true;
    const opening = new AbortController();
    this.opening = opening;
    try {
      const embedder = this.getAttribute('embedder') ?? ThreadlineChat.defaultEmbedder;
      // A transformer model's weights, as its index was built with them (`threadline index --dtype`); checked by createThreadline().
      const dtype = this.getAttribute('dtype');
      const open = (name: string) => createThreadline({
        signal: opening.signal,
        name,
        ...(embedder || dtype !== null ? {
          embedder: {
            ...(embedder ? { model: embedder } : {}),
            ...(dtype !== null ? { dtype: dtype.trim() as EmbedderDtype } : {}),
            ...(ThreadlineChat.defaultEmbedder ? { offlineModel: ThreadlineChat.defaultEmbedder } : {}),
          },
        } : {}),
        llm: this.llmObject ?? llmOption(this.getAttribute('llm')),
        onProgress: (p) => { if (live()) this.onProgress(p); },
      });
      const index = this.getAttribute('index');
      // A name set by the page is the page's. Without one, the default name answers only from this element's own index
      // file, and an element whose file finds another file's index there takes a name of its own (index-name.ts).
      const named = this.getAttribute('name') || (index ? rememberedName(index) : null);
      const exclusive = !named && index !== null;
      let tl = await open(named || DEFAULT_NAME);
      if (!current()) return void (await tl.dispose());
      this.instance = tl;
      let stale = '';
      if (index) {
        this.setStatus('Loading the index…');
        try {
          stale = await this.loadIndex(tl, index, exclusive, live);
        } catch (error) {
          if (!exclusive || !isThreadlineError(error, 'NAME_IN_USE')) throw error;
          this.instance = null;
          await tl.dispose();
          if (!current()) return;
          rememberName(index);
          tl = await open(nameForIndex(index));
          if (!current()) return void (await tl.dispose());
          this.instance = tl;
          stale = await this.loadIndex(tl, index, false, live);
        }
      }
      const [stats, sessions] = await Promise.all([tl.stats(), tl.sessions()]);
      if (!current()) return;
      // The latest turns only, the rest read when the visitor asks for them: a long conversation's reload costs what a short one's does.
      const session = await tl.chat({ ...(sessions[0] ? { sessionId: sessions[0].id } : {}), latestTurns: RESTORED_AT_ONCE });
      this.session = session;
      const view = this.viewOptions();
      restoreTurns(this.ui.log, session.history(), (turn) => TurnView.restored(turn, view).element, {
        atOnce: RESTORED_AT_ONCE, stored: { count: () => session.earlierCount, read: (n) => session.earlier(n) },
      });
      this.ui.progress.hidden = true;
      const answers = tl.llm ? `answers by ${tl.llm.id}` : `extractive answers (no language model${this.llmNote ? `: ${this.llmNote}` : ''})`;
      this.readyStatus = `${stats.docs} documents · ${answers}${stale}`;
      // A question the page closed on before its answer is put back where it was typed, not asked again unbidden.
      // Not over what the visitor has typed meanwhile.
      const unanswered = this.ui.input.value ? undefined : this.session.pending();
      if (unanswered) this.ui.input.value = unanswered.user;
      this.unansweredStatus = unanswered ? `${this.readyStatus} · your last question was not answered: it is in the box, press Enter to ask it` : '';
      this.setStatus(this.unansweredStatus || this.readyStatus);
      this.chat.enable(true);
      this.ui.fresh.disabled = false;
      this.showSuggestions();
      this.emit('threadline-ready', { docs: stats.docs, chunks: stats.chunks, llm: tl.llm?.id ?? null, name: tl.name });
    } catch (error) {
      if (!current()) return;
      failed = true;
      this.ui.progress.hidden = true;
      const m = message(error);
      this.setStatus(`Cannot answer here: ${m.message}`, true);
      if (isRetryable(error)) this.offerRetry(opening.signal);
      this.emit('threadline-error', m);
    }
  }

  /**
   * After a failure a second try can mend: a "Try again" button, and a try of its own when the browser comes back
   * online if it failed offline (a first visit without a network). Before, only a reload of the page would do.
   */
  private offerRetry(opening: AbortSignal): void {
    this.ui.retry.hidden = false;
    if (typeof navigator !== 'undefined' && navigator.onLine === false) {
      // `opening` is aborted by the next restart or a removal, which also drops this listener.
      window.addEventListener('online', () => { if (!opening.aborted) this.restart(); }, { once: true, signal: opening });
    }
  }

  /**
   * Loads the `index` file into `tl`; returns '' or, where it could not be fetched again (offline, a 503, a broken
   * redeploy), the status note of the verified copy stored on an earlier visit, which then answers. `exclusive`:
   * never replace, nor answer from, another file's index (NAME_IN_USE, for the caller to take a name of its own).
   */
  private async loadIndex(tl: Threadline, index: string, exclusive: boolean, current: () => boolean): Promise<string> {
    try {
      await tl.load(index, { onProgress: (p) => { if (current()) this.onProgress(p); }, ...(exclusive ? { onOtherSource: 'error' as const } : {}) });
      return '';
    } catch (error) {
      if (isThreadlineError(error, 'NAME_IN_USE')) throw error;
      const stats = await tl.stats();
      if (stats.docs === 0) throw error;
      const own = indexSource(index);
      if (exclusive && stats.source !== undefined && stats.source !== own) {
        throw new ThreadlineError('NAME_IN_USE', `"${tl.name}" holds the index of ${stats.source}, not of ${own}`, { cause: error });
      }
      const m = message(error);
      this.emit('threadline-error', { ...m, recovered: true });
      return ` · the index could not be updated (${m.code}); answering from the copy saved on this device`;
    }
  }

  private async newConversation(): Promise<void> {
    if (!this.instance || this.chat.busy) return;
    try {
      this.session = await this.instance.chat();
    } catch (error) {
      const m = message(error);
      this.setStatus(`Cannot start a conversation: ${m.message}`, true);
      this.emit('threadline-error', m);
      return;
    }
    this.ui.log.replaceChildren();
    if (this.unansweredStatus) {
      // The unanswered question stays in the box, to be asked in the new conversation or cleared.
      this.unansweredStatus = '';
      this.setStatus(this.readyStatus);
    }
    this.showSuggestions();
    this.ui.input.focus();
  }

  private viewOptions(): TurnViewOptions {
    const id = this.instance?.llm?.id;
    // "link-hosts": space-separated hosts whose links stay clickable; absent: any http(s) host.
    const hosts = this.getAttribute('link-hosts')?.split(/[\s,]+/).filter(Boolean);
    return { copy: true, ...(id ? { llmId: id } : {}), ...(hosts ? { linkHosts: hosts } : {}) };
  }

  /**
   * The `suggestions` attribute ("What is the refund window? | How do I track
   * my order?"): starter questions as buttons while the conversation is empty.
   */
  private showSuggestions(): void {
    const empty = this.ui.log.childElementCount === 0 && this.session !== null;
    renderSuggestions(this.ui.suggestions, empty ? this.getAttribute('suggestions') : null, (q) => void this.chat.ask(q));
  }

  private onProgress(p: Progress): void {
    const bar = this.ui.progress;
    if (p.phase === 'model-ready' && this.readyStatus) {
      bar.hidden = true;
      this.setStatus(this.unansweredStatus || this.readyStatus);
    } else if (p.phase === 'model-download' || p.phase === 'llm-load') {
      bar.hidden = p.phase === 'llm-load' && p.stage === 'ready';
      bar.value = p.fraction;
      // The search model loads while the index does; once the element is ready its status (and any
      // warning in it) stays, and the bar alone shows the rest of the download.
      if (p.phase === 'llm-load') this.setStatus(p.text);
      else if (!this.readyStatus) this.setStatus(`Downloading the search model: ${Math.round(p.fraction * 100)}%`);
    } else if (p.phase === 'index-download') {
      // A large site's index on a slow network: say how far it is (the bar, when the server gives a size).
      bar.hidden = p.total === 0 || p.loaded >= p.total;
      bar.value = p.fraction;
      if (!this.readyStatus) this.setStatus(`Loading the index: ${p.total > 0 ? `${Math.round(p.fraction * 100)}%` : `${(p.loaded / 1e6).toFixed(1)} MB`}`);
    } else if (p.phase === 'llm-status' && p.status === 'unavailable') {
      this.llmNote = p.reason;
    } else if (p.phase === 'llm-status') {
      bar.hidden = true;
      this.setStatus(p.status === 'ready' ? this.unansweredStatus || this.readyStatus : p.reason, p.status !== 'ready');
    }
  }

  private setStatus(text: string, error = false): void {
    this.ui.status.textContent = text;
    this.ui.status.dataset.state = error ? 'error' : 'ok';
  }

  private emit(type: string, detail: unknown): void {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }
}

/** Registers the element (once) under `tag`; does nothing where there is no `customElements` (Node). */
export function defineThreadlineChat(tag = 'threadline-chat'): void {
  if (typeof customElements === 'undefined') return; // no DOM here (a server render): the browser's import defines it
  if (!customElements.get(tag)) customElements.define(tag, ThreadlineChat);
}
