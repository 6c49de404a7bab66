/**
 * Large `add()` and `embed()` calls cross to the worker in parts. Posting a message clones its data on the page's
 * main thread in one task: nine million characters of documents took 80–180 ms in Chromium on a 2-core machine,
 * long enough for the page to miss frames and input (test/browser/hostile.test.ts counts long tasks). So documents
 * (or texts) whose text adds up to more than STAGE_CHARS are sent ahead as parts of at most that many characters,
 * each in its own message (a long text split across several), and the call itself carries only a marker; the
 * worker puts them back together, in order, before the engine sees them. Between parts the page's event loop runs.
 */

/** Characters of document text per message: about 5 ms of cloning (measured as above). */
export const STAGE_CHARS = 256 * 1024;

/** A part sent ahead: a document (its text possibly cut short), or more of the last document's text. */
export type StagedPart = { doc: unknown } | { more: string };

/** The data argument of a call whose documents (or texts) were sent ahead under its operation id. */
export interface StagedMarker { readonly staged: true }

export const STAGED: StagedMarker = Object.freeze({ staged: true });

export function isStaged(value: unknown): value is StagedMarker {
  return typeof value === 'object' && value !== null && (value as { staged?: unknown }).staged === true && !Array.isArray(value);
}

/** The text an item carries: a document's `text`, or the item itself where it is a string (`embed()`'s texts). */
function textOf(item: unknown): string | undefined {
  if (typeof item === 'string') return item;
  const text = typeof item === 'object' && item !== null ? (item as { text?: unknown }).text : undefined;
  return typeof text === 'string' ? text : undefined;
}

/** `item` with its text replaced by `text`. */
function withText(item: unknown, text: string): unknown {
  return typeof item === 'string' ? text : { ...(item as object), text };
}

/**
 * `docs` (documents, or `embed()`'s strings) as messages of parts, or null where one message is short enough (or
 * `docs` is no array: the worker refuses it as before).
 */
export function stagedParts(docs: unknown): StagedPart[][] | null {
  if (!Array.isArray(docs)) return null;
  let total = 0;
  for (const doc of docs) total += textOf(doc)?.length ?? 0;
  if (total <= STAGE_CHARS) return null;
  const messages: StagedPart[][] = [];
  let current: StagedPart[] = [];
  let size = 0;
  const flush = () => { if (current.length > 0) messages.push(current); current = []; size = 0; };
  for (const doc of docs as unknown[]) {
    const text = textOf(doc);
    const length = text?.length ?? 0;
    if (text === undefined || length <= STAGE_CHARS) {
      if (size + length > STAGE_CHARS) flush();
      current.push({ doc });
      size += length;
      continue;
    }
    flush();
    // A copy with its text cut short (own enumerable fields, as cloning takes them), then the rest in pieces.
    messages.push([{ doc: withText(doc, text.slice(0, STAGE_CHARS)) }]);
    for (let at = STAGE_CHARS; at < length; at += STAGE_CHARS) messages.push([{ more: text.slice(at, at + STAGE_CHARS) }]);
  }
  flush();
  return messages;
}

/** The worker's side: parts received per operation id, put back together when the call comes. */
export class StagedDocuments {
  private readonly byOp = new Map<number, unknown[]>();

  receive(opId: number, parts: unknown): void {
    if (!Array.isArray(parts)) return;
    let docs = this.byOp.get(opId);
    if (!docs) this.byOp.set(opId, (docs = []));
    for (const part of parts as unknown[]) {
      if (typeof part !== 'object' || part === null) continue;
      if ('doc' in part) docs.push(part.doc);
      else if (typeof (part as { more?: unknown }).more === 'string') {
        const more = (part as { more: string }).more;
        const last = docs.at(-1) as { text?: unknown } | string | undefined;
        if (typeof last === 'string') docs[docs.length - 1] = last + more;
        else if (last && typeof last === 'object' && typeof last.text === 'string') last.text += more;
      }
    }
  }

  /** Whether parts came for `opId`. */
  has(opId: number): boolean {
    return this.byOp.has(opId);
  }

  /** The documents sent ahead for `opId` (none: an empty list), forgotten here. */
  take(opId: number): unknown[] {
    const docs = this.byOp.get(opId) ?? [];
    this.byOp.delete(opId);
    return docs;
  }

  drop(opId: number): void {
    this.byOp.delete(opId);
  }
}
