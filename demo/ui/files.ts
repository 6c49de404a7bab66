/**
 * Files dropped or picked in the playground → threadline documents. The format
 * comes from the extension; anything else is skipped with a reason. PDF and
 * Word files go as they are (a File is a Blob) and are read in the worker.
 */
import type { DocumentFormat, ThreadlineDocument } from '../../src/index';
import { readText } from '../../src/ingest/read-text';

const FORMATS: Record<string, DocumentFormat> = { md: 'markdown', markdown: 'markdown', txt: 'text', text: 'text', html: 'html', htm: 'html', pdf: 'pdf', docx: 'docx' };

export interface ReadFiles {
  docs: ThreadlineDocument[];
  skipped: { name: string; reason: string }[];
}

export async function readDocuments(files: Iterable<File>): Promise<ReadFiles> {
  const result: ReadFiles = { docs: [], skipped: [] };
  for (const file of files) {
    const name = (file as File & { webkitRelativePath?: string }).webkitRelativePath || file.name;
    const ext = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? '';
    const format = FORMATS[ext];
    if (!format) {
      result.skipped.push({ name, reason: ext === 'doc' ? 'old Word format (save it as .docx)' : 'not Markdown, text, HTML, PDF or Word (.docx)' });
      continue;
    }
    if (format === 'pdf' || format === 'docx') result.docs.push({ id: name, title: file.name, data: file, format });
    else {
      // As `threadline index` reads it: an image named .md is skipped, a Latin-1 file read as Windows-1252.
      const read = readText(new Uint8Array(await file.arrayBuffer()), format);
      if ('unreadable' in read) result.skipped.push({ name, reason: read.unreadable });
      else result.docs.push({ id: name, title: file.name.replace(/\.[^.]+$/, ''), text: read.text, format });
    }
  }
  return result;
}
