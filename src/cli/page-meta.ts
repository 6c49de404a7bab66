/**
 * What a site author's files say about themselves, for citations: a title
 * and the URL of the page built from the file. The title is a Markdown
 * file's front-matter `title`, else what the document's own parser reads as
 * its title (a `#` heading, an HTML `<title>` or `<h1>`, a logo heading's alt
 * text), else its first heading of any level, else the file name. Read with
 * the same parsers that index the file, so a `# comment` inside a code block
 * or an `<h1>` inside a script is never a title.
 */
import { basename, extname } from 'node:path';
import type { DocumentFormat } from '../document';
import { parseHtml } from '../ingest/html';
import { parseMarkdown } from '../ingest/markdown';

/** A title longer than this is cut: it is shown in a citation. */
const MAX_TITLE = 200;

export function pageTitle(text: string, format: DocumentFormat, file: string): string {
  let found: string | undefined;
  if (format === 'markdown') {
    const frontMatter = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(text);
    found = /^title:[ \t]*["']?(.+?)["']?[ \t]*$/m.exec(frontMatter?.[1] ?? '')?.[1];
  }
  if (!found && (format === 'markdown' || format === 'html')) {
    const doc = format === 'markdown' ? parseMarkdown(text) : parseHtml(text);
    found = doc.title ?? doc.sections.find((s) => s.headingPath.length > 0)?.headingPath[0];
  }
  const title = (found ?? '').replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE);
  return title || basename(file, extname(file));
}

/**
 * The page URL for a source file: `guide/install.md` with base
 * `https://example.com/docs/` and page extension `.html` becomes
 * `https://example.com/docs/guide/install.html`; with base `/docs/` (a path
 * from the site's root, for a site served from any host), `/docs/guide/install.html`.
 * Without a base, the path as is. The base is checked first (`baseUrlProblem`).
 */
export function pageUrl(relativePath: string, baseUrl: string | undefined, pageExtension: string): string {
  const path = relativePath.replaceAll('\\', '/');
  if (baseUrl === undefined) return path;
  const page = path.slice(0, path.length - extname(path).length) + pageExtension;
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  const relative = page.split('/').map(encodeURIComponent).join('/');
  if (!isRootPath(base)) return new URL(relative, base).href;
  const url = new URL(relative, `https://site.invalid${base}`);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Why `baseUrl` cannot be a base for page URLs, or null when it can: an absolute URL, or a path from the site's root. */
export function baseUrlProblem(baseUrl: string): string | null {
  // Only http(s): a page's links under any other scheme ("javascript:", "file:") are dropped by the renderer, or cannot
  // take a relative path at all.
  if (isRootPath(baseUrl) || (URL.canParse(baseUrl) && /^https?:$/.test(new URL(baseUrl).protocol))) return null;
  return `${baseUrl} is neither an absolute http(s) URL (https://example.com/docs/) nor a path from the site's root (/docs/)`;
}

function isRootPath(url: string): boolean {
  return url.startsWith('/') && !url.startsWith('//');
}
