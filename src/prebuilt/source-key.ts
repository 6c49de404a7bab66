/**
 * What identifies a prebuilt index file's source: its URL without query or
 * fragment, so that `site.tlix?v=2` (a cache buster) is the same file as
 * `site.tlix`. Recorded in the manifest when a file is loaded from a URL
 * (Manifest.source), and compared by `load(url, { onOtherSource: 'error' })`.
 */
export function sourceKey(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url.replace(/[?#].*$/s, '');
  }
}
