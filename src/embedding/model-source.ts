/**
 * Splits a model reference into what transformers.js needs: a hub id stays a
 * hub id; a URL or path is a self-hosted folder, loaded with remote models off.
 */
export interface ModelSource {
  /** The name transformers.js asks for (last path segment for folders). */
  name: string;
  /** Base path or URL that holds the folder `name`, or null for a hub id. */
  localBase: string | null;
}

export function isFolderReference(model: string): boolean {
  return /^(?:[a-z][a-z0-9+.-]*:\/\/|\/|\.\.?\/)/i.test(model) || model.endsWith('/');
}

export function resolveModelSource(model: string, baseUrl?: string): ModelSource {
  const trimmed = model.trim();
  if (!trimmed) throw new Error('model reference is empty');
  if (!isFolderReference(trimmed)) return { name: trimmed, localBase: null };
  const absolute = baseUrl && !/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? new URL(trimmed, baseUrl).href : trimmed;
  const noSlash = absolute.replace(/\/+$/, '');
  const cut = noSlash.lastIndexOf('/');
  return { name: noSlash.slice(cut + 1), localBase: noSlash.slice(0, cut + 1) };
}

/**
 * The identity recorded in an index manifest: the model's name (not where it
 * is hosted, so moving the files keeps the index valid) and its precision.
 */
export function modelIdentity(model: string, dtype: string): string {
  return `${resolveModelSource(model).name}#${dtype}`;
}
