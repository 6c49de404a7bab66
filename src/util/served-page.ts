/**
 * Telling a web page from the file that was asked for. Static hosts answer a missing file with status 200 and a
 * page: a single-page-app fallback (Netlify's and Vercel's rewrites to /index.html) or a custom 404 page. Every
 * reader of a file threadline fetches (the prebuilt index, the model's files) asks the same two questions, so a
 * missing file is reported as missing, not as a corrupt index or "not JSON".
 */

/** Whether the response says it is a page (`text/html`, `application/xhtml+xml`). */
export function labelledAsPage(headers: Headers): boolean {
  return /\b(text\/html|application\/xhtml\+xml)\b/i.test(headers.get('content-type') ?? '');
}

/**
 * Whether the bytes begin, after a byte order mark and whitespace, with the opening of an HTML or XML document:
 * for hosts that label every file alike (`application/octet-stream`). It names the tags a page starts with rather
 * than any `<`, because a binary file may start with that byte (a safetensors file's first byte is the low byte of
 * its header's length); a JSON file or a TLIX index never starts with any of them.
 */
export function startsLikePage(bytes: Uint8Array): boolean {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const end = Math.min(bytes.length, 1024);
  for (; i < end; i++) {
    const b = bytes[i] ?? 0;
    if (b !== 0x20 && (b < 0x09 || b > 0x0d)) break;
  }
  if (bytes[i] !== 0x3c) return false;
  let head = '';
  for (let j = i + 1; j < Math.min(bytes.length, i + 10); j++) head += String.fromCharCode(bytes[j] ?? 0);
  return PAGE_OPENING.test(head);
}

/** What follows the `<` that opens a page: a doctype, comment, XML declaration, or one of the tags a document starts with. */
const PAGE_OPENING = /^(!doctype|!--|\?xml|(html|head|body|meta|title|link|script|style)[\s>/])/i;
