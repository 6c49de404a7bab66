/** Picks the parser for a document's format. */
import type { DocumentFormat, ParsedDocument } from '../document';
import { parseHtml } from './html';
import { parseMarkdown } from './markdown';
import { parsePlainText } from './plain-text';

export function parseDocument(text: string, format: DocumentFormat = 'text'): ParsedDocument {
  switch (format) {
    case 'markdown': return parseMarkdown(text);
    case 'html': return parseHtml(text);
    case 'text': return parsePlainText(text);
  }
}
