/**
 * Renders model and document text (untrusted) as Markdown into DOM nodes,
 * safe by construction: elements come only from document.createElement and
 * text only from text nodes, so there is no HTML parsing anywhere: raw HTML
 * in the input is shown as text. Links must be http(s) (or in-page #anchors)
 * and open with rel="noopener noreferrer nofollow". Images never load: they
 * render as their alt text (a poisoned document cannot exfiltrate a
 * conversation through an image URL). Citation markers [n] become buttons
 * carrying data-cite="n". Streaming re-renders the accumulated text, so a
 * payload split across tokens is never re-parsed as HTML.
 *
 * Defence in depth: the finished nodes also pass through DOMPurify in place
 * (no images, forms, frames, SVG or MathML; http(s) and #anchor URLs only),
 * so a mistake in this renderer would still not reach the page as live markup.
 */
import createPurifier, { type Config, type DOMPurify } from 'dompurify';
import { headingText } from '../text/heading-text';

export interface RenderOptions {
  /** Citation numbers that may become buttons; others stay text. @default all */
  citations?: ReadonlySet<number>;
  /** Link hosts allowed; `undefined` allows any http(s) host. */
  linkHosts?: readonly string[];
}

const SAFE_PROTOCOLS = new Set(['http:', 'https:']);

/** The URL if it is a safe http(s) link (or #anchor), else null. Control and whitespace characters never pass. */
export function safeHref(raw: string, options: RenderOptions = {}): string | null {
  const href = raw.trim();
  // eslint-disable-next-line no-control-regex
  if (!href || /[\u0000-\u001f\u007f\s\\]/.test(href)) return null;
  if (href.startsWith('#')) return /^#[\w-]*$/.test(href) ? href : null;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  if (!SAFE_PROTOCOLS.has(url.protocol)) return null;
  if (options.linkHosts && !options.linkHosts.includes(url.host)) return null;
  return url.href;
}

type Inline = (parent: Node, text: string) => void;

/** Longest emphasis rendered as such ("*…*"): an opening star with no closing one costs at most this many steps. */
const EMPHASIS_SPAN = 500;

function inlineRenderer(doc: Document, options: RenderOptions): Inline {
  // Every scan stops where the next candidate could start (a code span opens only at the start of a run of
  // backticks, and one between single backticks holds none; labels hold no brackets, targets one level of parentheses at most) or
  // after EMPHASIS_SPAN characters: the model's text and quoted passages are untrusted, this runs on the page's
  // main thread once per streamed token, and "[[[[…" or "*a *a *a …" once cost the rest of the answer at each mark.
  const TOKEN = new RegExp(String.raw`(?<!\`)(\`\`+)([\s\S]{1,${EMPHASIS_SPAN}}?)(?<!\`)\1(?!\`)|(?<!\`)(\`)([^\`]+)\3|!\[([^\][]*)\]\(((?:[^()\s]|\([^()\s]*\))*)(?:\s[^()]*)?\)|\[([^\][]+)\]\(((?:[^()\s]|\([^()\s]*\))*)(?:\s[^()]*)?\)|\*\*([\s\S]+?)\*\*|__([\s\S]+?)__|(?<![\w*])\*(?!\s)([\s\S]{1,${EMPHASIS_SPAN}}?)(?<!\s)\*(?![\w*])|(?<!\w)_(?!\s)([\s\S]{1,${EMPHASIS_SPAN}}?)(?<!\s)_(?!\w)|\[(\d{1,4})\]|(https?:\/\/[^\s<>"')\]]+)`, 'g');
  const render: Inline = (parent, text) => {
    let last = 0;
    for (const m of text.matchAll(TOKEN)) {
      if (m.index > last) parent.appendChild(doc.createTextNode(text.slice(last, m.index)));
      last = m.index + m[0].length;
      const [whole, ticks, code, tick, shortCode, alt, , label, href, strong1, strong2, em1, em2, cite, bare] = m;
      if (ticks ?? tick) {
        const el = doc.createElement('code');
        el.textContent = code ?? shortCode ?? '';
        parent.appendChild(el);
      } else if (alt !== undefined) {
        // Images never load. Their alt text is shown, marked as an image.
        const el = doc.createElement('span');
        el.className = 'tl-image';
        el.textContent = `[image: ${alt}]`;
        parent.appendChild(el);
      } else if (label !== undefined) {
        const safe = safeHref(href ?? '', options);
        if (safe) {
          const a = doc.createElement('a');
          a.href = safe;
          a.rel = 'noopener noreferrer nofollow';
          a.target = '_blank';
          render(a, label);
          parent.appendChild(a);
        } else {
          render(parent, label);
        }
      } else if (strong1 !== undefined || strong2 !== undefined) {
        const el = doc.createElement('strong');
        render(el, strong1 ?? strong2 ?? '');
        parent.appendChild(el);
      } else if (em1 !== undefined || em2 !== undefined) {
        const el = doc.createElement('em');
        render(el, em1 ?? em2 ?? '');
        parent.appendChild(el);
      } else if (cite !== undefined) {
        const n = Number(cite);
        if (!options.citations || options.citations.has(n)) {
          const button = doc.createElement('button');
          button.type = 'button';
          button.className = 'tl-cite';
          button.dataset.cite = String(n);
          button.textContent = `[${n}]`;
          parent.appendChild(button);
        } else {
          parent.appendChild(doc.createTextNode(whole));
        }
      } else if (bare !== undefined) {
        const safe = safeHref(bare, options);
        if (safe) {
          const a = doc.createElement('a');
          a.href = safe;
          a.rel = 'noopener noreferrer nofollow';
          a.target = '_blank';
          a.textContent = bare;
          parent.appendChild(a);
        } else {
          parent.appendChild(doc.createTextNode(bare));
        }
      }
    }
    if (last < text.length) parent.appendChild(doc.createTextNode(text.slice(last)));
  };
  return render;
}

/** Renders `markdown` into a fragment of safe nodes (block structure: headings, lists, code, quotes, paragraphs). */
export function renderMarkdown(markdown: string, options: RenderOptions = {}, doc: Document = document): DocumentFragment {
  const box = doc.createElement('div'); // DOMPurify cleans it in place; its children are returned
  const inline = inlineRenderer(doc, options);
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  let paragraph: string[] = [];
  let list: HTMLElement | null = null;
  const flush = () => {
    if (paragraph.length) {
      const p = doc.createElement('p');
      inline(p, paragraph.join(' '));
      box.appendChild(p);
      paragraph = [];
    }
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fence = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      flush(); list = null;
      const body: string[] = [];
      for (i++; i < lines.length && !(lines[i] ?? '').trimStart().startsWith(fence[1] ?? '```'); i++) body.push(lines[i] ?? '');
      const pre = doc.createElement('pre');
      const code = doc.createElement('code');
      code.textContent = body.join('\n');
      pre.appendChild(code);
      box.appendChild(pre);
      continue;
    }
    const heading = /^\s{0,3}(#{1,6})\s+/.exec(line);
    const item = /^\s*(?:([-*+])|(\d{1,9})[.)])\s+(.*)$/.exec(line);
    const quote = /^\s{0,3}>\s?(.*)$/.exec(line);
    if (heading) {
      flush(); list = null;
      const h = doc.createElement(`h${Math.min(6, (heading[1] ?? '#').length + 2)}`); // demoted: answers sit inside a page
      inline(h, headingText(line.slice(heading[0].length)));
      box.appendChild(h);
    } else if (item) {
      flush();
      const tag = item[1] ? 'ul' : 'ol';
      if (!list || list.tagName.toLowerCase() !== tag) { list = doc.createElement(tag); box.appendChild(list); }
      const li = doc.createElement('li');
      inline(li, item[3] ?? '');
      list.appendChild(li);
    } else if (quote) {
      flush(); list = null;
      const q = doc.createElement('blockquote');
      inline(q, quote[1] ?? '');
      box.appendChild(q);
    } else if (!line.trim()) {
      flush(); list = null;
    } else {
      list = null;
      paragraph.push(line.trim());
    }
  }
  flush();
  purifyInPlace(box);
  const out = doc.createDocumentFragment();
  out.append(...box.childNodes);
  return out;
}

const PURIFY: Config & { IN_PLACE: true } = {
  IN_PLACE: true,
  // DOMPurify's default minus every scheme but http(s); it also checks non-URL attributes (rel, type) against this.
  ALLOWED_URI_REGEXP: /^(?:https?:|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i,
  FORBID_TAGS: ['img', 'picture', 'source', 'video', 'audio', 'iframe', 'object', 'embed', 'form', 'input', 'svg', 'math', 'style', 'link', 'meta', 'base'],
  FORBID_ATTR: ['style'], // a CSS url() would load, like an image
  ADD_ATTR: ['target'],
};

const purifiers = new WeakMap<object, DOMPurify>();

/** The second layer on its own: strips from `element`'s subtree anything but inert markup and http(s) links. */
export function purifyInPlace(element: Element): void {
  purifierFor(element.ownerDocument).sanitize(element);
}

/**
 * One DOMPurify instance per window (renderMarkdown accepts any document), configured once: a configuration
 * passed to every sanitize() is parsed again each time (its allow-lists rebuilt from DOMPurify's defaults), once
 * per restored turn and per streamed token. Ours is that instance's own, so no other user of DOMPurify sees it.
 */
function purifierFor(doc: Document): DOMPurify {
  const win = doc.defaultView ?? (globalThis as { window?: Window }).window;
  if (!win) throw new Error('renderMarkdown needs a DOM window');
  let purifier = purifiers.get(win);
  if (!purifier) {
    // A Window is the WindowLike DOMPurify asks for; TypeScript's Window type does not list its constructors.
    purifier = createPurifier(win as unknown as Parameters<typeof createPurifier>[0]);
    purifier.setConfig(PURIFY);
    purifiers.set(win, purifier);
  }
  return purifier;
}

/** Replaces `target`'s content with the rendering of `markdown` (use it again for every streamed token). */
export function renderInto(target: Element, markdown: string, options: RenderOptions = {}): void {
  target.replaceChildren(renderMarkdown(markdown, options, target.ownerDocument));
}
