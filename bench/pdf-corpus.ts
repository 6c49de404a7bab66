/** A generated PDF manual for the PDF benchmarks: `pages` pages of 40 lines of corpus sentences, a heading per page and an outline entry every ten pages. */
import { column, writePdf } from '../test/fixtures/pdf-writer';

export function pdfManual(sentences: readonly string[], pages: number): Uint8Array {
  const words = sentences.join(' ').split(/\s+/);
  let at = 0;
  const line = () => {
    let text = '';
    while (text.length < 80) text += `${words[at++ % words.length] ?? ''} `;
    return text.trim();
  };
  return writePdf({
    pages: Array.from({ length: pages }, (_, p) => ({
      lines: [{ text: `Chapter ${Math.floor(p / 10) + 1}, part ${p + 1}`, x: 72, y: 750, size: 16 }, ...column(Array.from({ length: 40 }, line), 72, 724, 16)],
    })),
    outline: Array.from({ length: Math.ceil(pages / 10) }, (_, c) => ({ title: `Chapter ${c + 1}`, page: c * 10 + 1 })),
  });
}
