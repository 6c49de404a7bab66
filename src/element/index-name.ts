/**
 * Which IndexedDB namespace an element with no `name` attribute uses.
 * Pages of one origin share IndexedDB, and may load different index files
 * (per-product docs; GitHub Pages project sites, which share an origin):
 * under one name, each page's load would replace the other's index, and an
 * open tab would answer from the other page's documents. So the default name
 * holds one file's index (the first loaded there, or the one loaded before
 * sources were recorded); an element whose file finds another file's index
 * there uses a name of its own, made from its file's path, and remembers it
 * (localStorage, where the page may use it) so that its next visits go there
 * at once instead of opening the default name's index first.
 */
import { sourceKey } from '../prebuilt/source-key';

/** The namespace of an element with no `name` attribute, while it holds this element's index file (or none). */
export const DEFAULT_NAME = 'threadline-chat';

/** The name for `index` (a URL, relative to `base`): one per file path, at most 200 characters (createThreadline's limit). */
export function nameForIndex(index: string, base: string = pageUrl()): string {
  const path = pathOf(index, base);
  const name = `${DEFAULT_NAME} ${path}`;
  if (name.length <= 200) return name;
  let hash = 0x811c9dc5; // FNV-1a: long paths that share their first 180 characters still get names of their own
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193) >>> 0;
  return `${name.slice(0, 180)}…${hash.toString(16).padStart(8, '0')}`;
}

/** The name this origin's element with `index` moved to on an earlier visit, if it did and the page may read storage. */
export function rememberedName(index: string, base: string = pageUrl()): string | null {
  try {
    const name = globalThis.localStorage?.getItem(hintKey(index, base)) ?? null;
    return name === nameForIndex(index, base) ? name : null; // anything else was not written by us
  } catch {
    return null; // storage disabled, or a sandboxed frame
  }
}

/** Remembers that the element with `index` uses its own name. A page that may not write storage finds it out again next time. */
export function rememberName(index: string, base: string = pageUrl()): void {
  try {
    globalThis.localStorage?.setItem(hintKey(index, base), nameForIndex(index, base));
  } catch {
    // quota, disabled storage: only the shortcut is lost
  }
}

/** Where the index file is recorded from when loaded (Manifest.source: its URL without query or fragment), for `index` as the page resolves it. */
export function indexSource(index: string, base: string = pageUrl()): string {
  return sourceKey(resolved(index, base)?.href ?? index);
}

/** The page's URL, which a relative `index` is resolved against. */
function pageUrl(): string {
  return globalThis.location?.href ?? 'http://localhost/';
}

/** `index` resolved against the page, as load() resolves it; null when it is no URL at all. */
function resolved(index: string, base: string): URL | null {
  try {
    return new URL(index, base);
  } catch {
    return null;
  }
}

function pathOf(index: string, base: string): string {
  return resolved(index, base)?.pathname ?? index;
}

function hintKey(index: string, base: string): string {
  return `threadline-chat:name ${pathOf(index, base)}`;
}
