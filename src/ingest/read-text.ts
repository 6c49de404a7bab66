/**
 * A Markdown, text or HTML file's bytes → its text, as `threadline index`,
 * threadline/vite and the playground's file drop read them: UTF-8, with or
 * without a byte-order mark, and UTF-16 with one (what Windows' Notepad saves
 * as "Unicode"). A file with NUL bytes is not text (an image or archive named
 * .md): it is left out, with the reason, rather than indexed as noise. An
 * HTML page that declares its encoding is read in it, as a browser reads it;
 * other bytes that are not UTF-8 are read as Windows-1252, as a browser reads
 * an unlabelled legacy page ("café" saved in Latin-1 stays "café", not
 * "caf�"), and the caller is told.
 */

export type ReadText = { text: string; note?: string } | { unreadable: string };

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** `format` 'html': a page's own `<meta charset>` is honoured, as a browser does (after a byte-order mark, before guessing). */
export function readText(bytes: Uint8Array, format?: string): ReadText {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)) };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)) };
  const bom = UTF8_BOM.every((b, i) => bytes[i] === b);
  const body = bom ? bytes.subarray(3) : bytes;
  if (body.includes(0)) return { unreadable: 'binary content (NUL bytes), not text' };
  const declared = format === 'html' && !bom ? declaredCharset(body) : undefined;
  if (declared) return { text: declared === 'windows-1252' ? windows1252(body) : new TextDecoder(declared).decode(body) };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(body) };
  } catch {
    return { text: windows1252(body), note: 'not valid UTF-8; read as Windows-1252 (save it as UTF-8 to be sure)' };
  }
}

/** 0x80–0x9F in Windows-1252 (the WHATWG Encoding table; 0 where it has no character and the byte stands for itself). Node's own decoder reads these as Latin-1 controls. */
const HIGH = [0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0,
  0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178];

function windows1252(bytes: Uint8Array): string {
  // Latin-1 decodes every byte to the code point of its value; only 0x80–0x9F differ, mapped after.
  const latin1 = new TextDecoder('latin1').decode(bytes);
  return latin1.replace(/[\x80-\x9f]/g, (c) => String.fromCharCode(HIGH[c.charCodeAt(0) - 0x80] || c.charCodeAt(0)));
}

/**
 * The encoding an HTML page declares in its first 1,024 bytes (`<meta charset="windows-1251">`, or the
 * `http-equiv="Content-Type"` form), as the decoder names it; undefined when it declares none, UTF-8 (the default
 * read), or one this runtime cannot decode. A page that says UTF-16 without a byte-order mark is read as UTF-8, as
 * the HTML standard says.
 */
function declaredCharset(body: Uint8Array): string | undefined {
  const head = new TextDecoder('latin1').decode(body.subarray(0, 1024));
  const label = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1];
  if (!label) return undefined;
  try {
    const encoding = new TextDecoder(label).encoding;
    return encoding === 'utf-8' || encoding.startsWith('utf-16') ? undefined : encoding;
  } catch {
    return undefined;
  }
}
