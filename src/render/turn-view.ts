/**
 * TurnView: the DOM of one chat turn, driven by a session's TurnEvents. The
 * user's words and passages are text nodes; the answer goes through the safe
 * Markdown renderer on every token. Citation buttons in the answer open the
 * cited passage in the source list below it. Shared by <threadline-chat> and
 * the playground, so both render untrusted text the same way.
 */
import type { TurnEvent, Turn } from '../chat/types';
import { EXTRACTIVE_NOTE, passageLabel } from '../chat/prompts';
import type { ExtractivePassage } from '../chat/extractive';
import { renderInto, safeHref } from './markdown-dom';

export interface TurnViewOptions {
  /** Shown as "Answer by <id>" under generated answers. */
  llmId?: string;
  /** Ids are derived from it, so two views never collide. @default a random prefix */
  idPrefix?: string;
  /**
   * Hosts whose links stay clickable inside answers (documents and models can
   * write any link); others render as plain text. Source links (the
   * documents' own `url`) are not affected. `undefined` allows every http(s)
   * host. @default undefined
   */
  linkHosts?: readonly string[];
  /** Add a "Copy" button to each finished answer (copies its text). @default false */
  copy?: boolean;
}

const MODE_LABELS = {
  extractive: 'Extractive answer: quoted from the sources below, no language model.',
  abstained: 'No answer: nothing relevant was found in the documents.',
  smalltalk: 'Small talk: answered without searching the documents.',
} as const;

let views = 0;

export class TurnView {
  readonly element: HTMLLIElement;
  private readonly rewrite: HTMLParagraphElement;
  private readonly answer: HTMLDivElement;
  private readonly mode: HTMLParagraphElement;
  private readonly sources: HTMLOListElement;
  private readonly prefix: string;
  private text = '';
  private citable = new Set<number>();
  /** The search ranked by words alone (the embedding model was still downloading): said under the answer. */
  private lexicalOnly = false;

  constructor(user: string, private readonly options: TurnViewOptions = {}) {
    this.prefix = options.idPrefix ?? `tl-${(views++).toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
    this.element = el('li', 'tl-turn');
    const question = el('p', 'tl-user');
    question.textContent = user;
    // Parts are what a page can style from outside a shadow root (`threadline-chat::part(answer)`).
    question.setAttribute('part', 'user');
    this.rewrite = el('p', 'tl-rewrite');
    this.rewrite.hidden = true;
    this.answer = el('div', 'tl-answer');
    this.answer.setAttribute('part', 'answer');
    this.answer.setAttribute('aria-busy', 'true');
    this.mode = el('p', 'tl-mode');
    this.mode.hidden = true;
    this.sources = el('ol', 'tl-sources');
    this.sources.setAttribute('part', 'sources');
    this.sources.setAttribute('aria-label', 'Sources');
    this.element.append(question, this.rewrite, this.answer, this.mode, this.sources);
    this.answer.addEventListener('click', (event) => {
      const button = (event.target as Element | null)?.closest?.('button[data-cite]');
      if (button) this.openSource(Number(button.getAttribute('data-cite')), true);
    });
  }

  /** A stored turn (resumed session): its answer and the labels of what it cited. */
  static restored(turn: Turn, options: TurnViewOptions = {}): TurnView {
    const view = new TurnView(turn.user, options);
    view.citable = new Set(turn.citations.map((c) => c.n));
    view.text = turn.assistant;
    view.render();
    view.finish(turn.mode);
    for (const c of turn.citations) view.addSource(c.n, c.label, c.url);
    return view;
  }

  update(event: TurnEvent): void {
    switch (event.type) {
      case 'condensed':
        if (event.gate === 'condenser-unavailable') {
          this.rewrite.hidden = false;
          this.rewrite.textContent = 'Searched as typed: the code that reads follow-ups with the conversation could not be fetched (reloading the page fetches it again).';
        } else if (event.method !== 'kept') {
          this.rewrite.hidden = false;
          const added = event.query.terms.length ? ` + ${event.query.terms.map((t) => `${t.term} ${t.weight}`).join(', ')}` : '';
          this.rewrite.textContent = `Searched for: “${event.question}”${added}`;
        }
        break;
      case 'sources':
        this.lexicalOnly = event.lexicalOnly === true;
        this.citable = new Set(event.chunks.map((_, i) => i + 1));
        this.sources.replaceChildren();
        event.chunks.forEach((hit, i) => this.addSource(i + 1, passageLabel(hit), hit.url, hit.text));
        break;
      case 'token':
        this.text += event.text;
        this.render();
        break;
      case 'done':
        // The mode line under the answer says it is extractive; the note in the answer's text is for API readers.
        this.text = event.mode === 'extractive' ? event.answer.replace(`\n\n${EXTRACTIVE_NOTE}`, '') : event.answer;
        this.citable = new Set(event.citations.map((c) => c.n).concat(event.extractive?.map((p) => p.n) ?? []));
        this.render();
        this.finish(event.mode, event.fallback);
        for (const item of this.sources.children) {
          const n = Number((item as HTMLElement).dataset.n);
          item.classList.toggle('tl-cited', this.citable.has(n));
        }
        if (event.mode === 'extractive' && event.extractive?.length) this.passagesToggle(event.extractive);
        break;
    }
  }

  /** Shows a failed turn; what was streamed so far stays visible. */
  fail(message: string): void {
    this.answer.removeAttribute('aria-busy');
    this.mode.hidden = false;
    this.mode.classList.add('tl-error');
    this.mode.textContent = message;
  }

  /** Expands source `n` (and focuses its toggle when asked). */
  openSource(n: number, focus = false): void {
    const item = this.sources.querySelector<HTMLLIElement>(`li[data-n="${n}"]`);
    const toggle = item?.querySelector<HTMLButtonElement>('button');
    if (!item || !toggle) return;
    setOpen(toggle, true);
    if (focus) toggle.focus();
    item.scrollIntoView?.({ block: 'nearest' });
  }

  /**
   * The short extractive answer stands alone: the sources it cites stay
   * listed, the others and every passage's text open together from one "Show
   * passages" button, each passage with the snippet's (or its own best)
   * sentence marked.
   */
  private passagesToggle(passages: readonly ExtractivePassage[]): void {
    const bodies: HTMLButtonElement[] = [];
    for (const passage of passages) {
      const item = this.sources.querySelector<HTMLLIElement>(`li[data-n="${passage.n}"]`);
      const text = item?.querySelector('.tl-passage-text');
      const toggle = item?.querySelector<HTMLButtonElement>('button.tl-source-toggle');
      if (!text || !toggle) continue;
      text.replaceChildren(...passage.sentences.flatMap((sentence, i) => {
        const node = sentence.highlight ? Object.assign(el('mark', 'tl-highlight'), { textContent: sentence.text }) : document.createTextNode(sentence.text);
        return i ? [document.createTextNode(' '), node] : [node];
      }));
      bodies.push(toggle);
    }
    if (!bodies.length) return;
    const inAnswer = new Set([...this.answer.querySelectorAll('button[data-cite]')].map((b) => b.getAttribute('data-cite')));
    const extra = [...this.sources.querySelectorAll<HTMLLIElement>(':scope > li')].filter((li) => !inAnswer.has(li.dataset.n ?? ''));
    const button = el('button', 'tl-show-passages');
    button.type = 'button';
    button.setAttribute('part', 'passages-button');
    button.setAttribute('aria-controls', bodies.map((t) => t.getAttribute('aria-controls')).join(' '));
    const show = (open: boolean) => {
      for (const toggle of bodies) setOpen(toggle, open);
      for (const li of extra) li.hidden = !open;
      button.textContent = open ? 'Hide passages' : `Show passages (${bodies.length})`;
      button.setAttribute('aria-expanded', String(open));
    };
    show(false);
    button.addEventListener('click', () => show(button.getAttribute('aria-expanded') !== 'true'));
    this.mode.after(button);
  }

  private render(): void {
    renderInto(this.answer, this.text, { citations: this.citable, ...(this.options.linkHosts ? { linkHosts: this.options.linkHosts } : {}) });
  }

  private finish(mode: keyof typeof MODE_LABELS | 'generated', fallback?: string): void {
    this.answer.removeAttribute('aria-busy');
    const text = mode === 'generated' ? `Answer by ${this.options.llmId ?? 'the language model'}, grounded in the sources below.` : MODE_LABELS[mode];
    this.mode.hidden = false;
    this.mode.dataset.mode = mode;
    const said = fallback === 'llm-error' ? `${text} (The language model failed; this extractive answer stands in.)` : text;
    this.mode.textContent = this.lexicalOnly ? `${said} Searched by words only: the search model was still downloading.` : said;
    if (this.options.copy && !this.element.querySelector('.tl-copy')) {
      const copy = el('button', 'tl-copy');
      copy.type = 'button';
      copy.textContent = 'Copy';
      copy.setAttribute('part', 'copy-button');
      copy.setAttribute('aria-label', 'Copy this answer');
      copy.addEventListener('click', () => {
        // The rendered text, not the raw Markdown: what the visitor reads is what they copy.
        void navigator.clipboard?.writeText(this.answer.textContent ?? '').then(() => { copy.textContent = 'Copied'; }, () => { copy.textContent = 'Copy failed'; });
      });
      this.mode.after(copy);
    }
  }

  private addSource(n: number, title: string, url: string | undefined, passage?: string): void {
    const item = el('li', 'tl-source');
    item.dataset.n = String(n);
    const toggle = el('button', 'tl-source-toggle');
    toggle.type = 'button';
    toggle.textContent = `[${n}] ${title}`;
    item.append(toggle);
    const body = el('div', 'tl-passage');
    body.id = `${this.prefix}-source-${n}`;
    body.hidden = true;
    toggle.setAttribute('aria-controls', body.id);
    toggle.setAttribute('aria-expanded', 'false');
    if (passage !== undefined) {
      const p = el('p', 'tl-passage-text');
      p.textContent = passage;
      body.append(p);
    }
    const href = url ? linkFor(url) : null;
    if (href) {
      const a = el('a', 'tl-passage-link');
      a.href = href;
      a.rel = 'noopener noreferrer nofollow';
      a.target = '_blank';
      a.textContent = 'Open the document';
      body.append(a);
    } else if (url) {
      const p = el('p', 'tl-passage-url');
      p.textContent = url; // a relative or unsafe URL is shown, never followed
      body.append(p);
    }
    if (!body.childElementCount) {
      // Nothing to open (a restored turn without a link): a plain label.
      const span = el('span', 'tl-source-label');
      span.textContent = toggle.textContent;
      item.replaceChildren(span);
      this.sources.append(item);
      return;
    }
    toggle.addEventListener('click', () => setOpen(toggle, toggle.getAttribute('aria-expanded') !== 'true'));
    item.append(body);
    this.sources.append(item);
  }
}

/** Document URLs may be relative to the page (a prebuilt index stores site paths); only http(s) survives. */
function linkFor(url: string): string | null {
  try {
    return safeHref(new URL(url, document.baseURI).href);
  } catch {
    return null;
  }
}

function setOpen(toggle: HTMLButtonElement, open: boolean): void {
  toggle.setAttribute('aria-expanded', String(open));
  const body = toggle.nextElementSibling as HTMLElement | null;
  if (body) body.hidden = !open;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  return node;
}
