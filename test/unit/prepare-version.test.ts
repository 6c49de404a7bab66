/**
 * PREPARE_VERSION guard: stored chunks are kept for as long as a document's
 * content hash matches, and the hash includes PREPARE_VERSION, so a change to
 * what the parsers and the chunker make of the same input must bump it, or
 * every user keeps the old chunks of every unchanged document.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { ThreadlineDocument } from '../../src/document';
import { readInProcess } from '../../src/ingest/binary-reader';
import { PREPARE_VERSION, prepareDocument } from '../../src/ingest/prepare';
import { TimeSlice } from '../../src/util/time-slice';
import type * as Prepare from '../../src/ingest/prepare';
import { SAMPLE_KB } from '../../demo/sample-kb';
import { writeDocx } from '../fixtures/docx-writer';
import { harborManual } from '../fixtures/pdf-writer';

type PrepareModule = typeof Prepare;

const FINGERPRINTS = resolve(import.meta.dirname, '../fixtures/prepare-fingerprints.json');

/** Every input format, with headings, lists, tables, code and pages. */
const INPUTS: ThreadlineDocument[] = [
  ...SAMPLE_KB.map((d) => ({ id: d.id, title: d.title, text: d.markdown, format: 'markdown' as const })),
  { id: 'page.html', format: 'html', text: '<html><head><title>Returns</title></head><body><nav>Menu</nav><h1>Returns</h1><p>Send it back within <b>30 days</b>.</p><h2>Damaged items</h2><ul><li>Photo first</li><li>Then ship</li></ul><table><tr><th>Plan</th><th>Price</th></tr><tr><td>Plus</td><td>$4</td></tr></table><script>alert(1)</script></body></html>' },
  { id: 'notes.txt', format: 'text', text: 'Plain notes.\n\nA second paragraph, long enough to matter. '.repeat(40) },
  { id: 'no-title.md', format: 'markdown', text: '<h1 align="center">Tool</h1>\n\n## Features\nFast.\n\n## Usage\nRun it.\n\n#### Deep\nDeeper.\n\n### Options\nSet them.' },
  { id: 'logo.md', format: 'markdown', text: '<h1 align="center">\n  <img src="logo.svg" alt="Gadget">\n</h1>\n\n> Small tools.\n\n## Install\nnpm i gadget' },
  { id: 'logo.html', format: 'html', text: '<h1><a href="/"><img src="logo.svg" alt="Gadget"></a></h1><p>Small tools.</p><h2>Install</h2><p>npm i gadget</p>' },
  { id: 'heading-badges.md', format: 'markdown', text: '# gadget [![Build Status](https://ci.test/b.svg)](https://ci.test) ![CI](https://ci.test/c.svg)\n\nSmall.\n\n## Install\nnpm i gadget\n\n## `decode(buffer: ArrayLike<number>): unknown`\nReads `Map<K, V>` too.' },
  { id: 'badges.md', format: 'markdown', text: '# Gadget\n\n<a href="https://ci.test">\n  <img src="https://ci.test/b.svg"\n       alt="build">\n</a>\n\n## filter(paths: Array&lt;Path&gt;)\nTom &amp; Jerry, `a &lt; b`.' },
  { id: 'code.md', format: 'markdown', text: '# Setup\n\n```sh\nnpm install threadline\n```\n\n## Errors\n\n| code | meaning |\n|---|---|\n| ABORTED | stopped |\n\n- one\n- two\n' },
  { id: 'manual.pdf', format: 'pdf', data: harborManual() },
  { id: 'guide.docx', format: 'docx', data: writeDocx([{ heading: 1, text: 'Guide' }, { text: 'Charge the pen for two hours.' }, { heading: 2, text: 'Care' }, { list: ['Wipe it dry.', 'Keep it warm.'] }, { table: [['Part', 'Life'], ['Tip', '1 year']] }]) },
];

/** A token count that does not depend on a model: the chunker's output, not the tokenizer's, is what is fingerprinted. */
const counter = { countTokens: (text: string) => text.split(/\s+/).filter(Boolean).length, maxTokens: 256 };

describe('PREPARE_VERSION', () => {
  it('names what the parsers and the chunker make of a fixed set of documents in every format', async () => {
    const prepared = [];
    for (const doc of INPUTS) {
      const bytes = doc.data instanceof Uint8Array ? doc.data : undefined;
      const { record, chunks } = await prepareDocument(doc, 'hash', counter, {}, { bytes, readBinary: readInProcess });
      prepared.push({ id: record.id, title: record.title ?? null, chars: record.chars, chunks });
    }
    const fingerprint = createHash('sha256').update(JSON.stringify(prepared)).digest('hex');
    const known = JSON.parse(readFileSync(FINGERPRINTS, 'utf8')) as Record<string, string>;
    const recorded = known[String(PREPARE_VERSION)];
    expect(recorded, `the parsers or the chunker now make other chunks of the same documents (fingerprint ${fingerprint}). Bump PREPARE_VERSION in src/ingest/prepare.ts and record the new fingerprint under the new version in test/fixtures/prepare-fingerprints.json (never overwrite an older entry), so stored documents are prepared again`).toBe(fingerprint);
    // Each version names one output: a fingerprint recorded twice means a bump without a change (a needless re-embedding for every user).
    expect(new Set(Object.values(known)).size).toBe(Object.keys(known).length);
  });

  it('prepared a stretch at a time (as add() does in the worker, the event loop turning at every step), every format gives the same chunks', async () => {
    for (const doc of INPUTS) {
      const bytes = doc.data instanceof Uint8Array ? doc.data : undefined;
      const whole = await prepareDocument(doc, 'hash', counter, {}, { bytes, readBinary: readInProcess });
      const sliced = await prepareDocument(doc, 'hash', counter, {}, { bytes, readBinary: readInProcess, slice: new TimeSlice(undefined, 0) });
      expect({ ...sliced, record: { ...sliced.record, addedAt: 0 } }).toEqual({ ...whole, record: { ...whole.record, addedAt: 0 } });
    }
  });

  it('is part of each document\'s content hash: after a bump, an unchanged document is prepared again', async () => {
    const doc = INPUTS[0] as ThreadlineDocument;
    const changed = async () => (await import('../../src/ingest/changed-documents')).changedDocuments;
    const run = async (stored: Map<string, string>) => (await (await changed())([doc], () => Promise.resolve(stored), counter, {}, 'model', { readBinary: readInProcess })).prepared;
    const [first] = await run(new Map());
    const hash = first?.record.hash ?? '';
    expect(await run(new Map([[doc.id, hash]]))).toEqual([]);
    vi.resetModules();
    vi.doMock('../../src/ingest/prepare', async (original) => ({ ...await original<PrepareModule>(), PREPARE_VERSION: PREPARE_VERSION + 1 }));
    try {
      const again = await run(new Map([[doc.id, hash]]));
      expect(again.map((d) => d.record.id)).toEqual([doc.id]);
      expect(again[0]?.record.hash).not.toBe(hash);
    } finally {
      vi.doUnmock('../../src/ingest/prepare');
      vi.resetModules();
    }
  });
});
