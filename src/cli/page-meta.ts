/**
 * What a site author's files say about themselves, for citations: a title
 * (the first Markdown heading, the HTML `<title>` or first `<h1>`, else the
 * file name) and the URL of the page built from the file.
 */
import { basename, extname } from 'node:path';
import type { DocumentFormat } from '../document';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };

function clean(text: string): string {
  return text.replace(/<[^>]*>/g, '').replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_, e: string) => ENTITIES[e] ?? '').replace(/\s+/g, ' ').trim();
}

export function pageTitle(text: string, format: DocumentFormat, file: string): string {
  let found: string | undefined;
  if (format === 'markdown') {
    // A front-matter title wins; otherwise the first ATX heading of any level.
    const frontMatter = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(text);
    const body = frontMatter ? text.slice(frontMatter[0].length) : text;
    found = /^title:[ \t]*["']?(.+?)["']?[ \t]*$/m.exec(frontMatter?.[1] ?? '')?.[1] ?? /^#{1,6}[ \t]+(.+?)[ \t#]*$/m.exec(body)?.[1];
  } else if (format === 'html') {
    found = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1] ?? /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(text)?.[1];
  }
  const title = found ? clean(found).slice(0, 200) : '';
  return title || basename(file, extname(file));
}

/**
 * The page URL for a source file: `guide/install.md` with base
 * `https://example.com/docs/` and page extension `.html` becomes
 * `https://example.com/docs/guide/install.html`. Without a base, the path as is.
 */
export function pageUrl(relativePath: string, baseUrl: string | undefined, pageExtension: string): string {
  const path = relativePath.replaceAll('\\', '/');
  if (baseUrl === undefined) return path;
  const page = path.slice(0, path.length - extname(path).length) + pageExtension;
  return new URL(page.split('/').map(encodeURIComponent).join('/'), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).href;
}
