/**
 * The bytes of a `data:` URL, read without `fetch`. Bundlers inline small assets as data: URLs (Vite below 4 KB:
 * the offline model's config.json and tokenizer_config.json), and a page's Content-Security-Policy that limits
 * `connect-src` to 'self' refuses to fetch them, so a bundled app under such a policy could not load its model.
 * Null where `url` is not a well-formed data: URL.
 */
export function dataUrlBytes(url: string): Uint8Array | null {
  const match = /^data:([^,]*),(.*)$/s.exec(url);
  if (!match) return null;
  const [, meta = '', payload = ''] = match;
  try {
    if (/;base64$/i.test(meta)) {
      const binary = atob(payload.replace(/\s+/g, ''));
      const bytes = new Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
      return bytes;
    }
    return new TextEncoder().encode(decodeURIComponent(payload));
  } catch {
    return null; // not base64, or a broken percent escape
  }
}
