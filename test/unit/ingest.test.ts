import { describe, expect, it } from 'vitest';
import { parseHtml } from '../../src/ingest/html';
import { parseMarkdown } from '../../src/ingest/markdown';
import { parsePlainText } from '../../src/ingest/plain-text';
import { chunkDocument } from '../../src/retrieval/chunker';
import { SAMPLE_KB } from '../../demo/sample-kb';

/** Whitespace-split token counter: a stand-in for the model tokenizer in pure tests. */
const words = (s: string) => (s.match(/\S+/g) ?? []).length;

describe('Markdown', () => {
  it('keeps headings as the path, drops syntax, keeps link and image text', () => {
    const doc = parseMarkdown(`---\ntitle: x\n---\n# Guide\nIntro **bold** and [a link](https://x.test) ![alt text](i.png).\n\n## Setup\n- step \`one\`\n- step two\n\n\`\`\`js\nconst a = 1;\n\`\`\`\n[ref]: https://x.test\nSub\n---\nbody`);
    expect(doc.title).toBe('Guide');
    expect(doc.text).toContain('Intro bold and a link alt text.');
    expect(doc.text).not.toMatch(/\*\*|\]\(|```|title: x|ref\]/);
    expect(doc.sections.map((s) => s.headingPath)).toEqual([['Guide'], ['Guide', 'Setup'], ['Guide', 'Sub']]);
    const setup = doc.sections[1];
    expect(doc.text.slice(setup?.start, setup?.end)).toBe('step one\nstep two\n\nconst a = 1;');
  });

  it('nests headings by level, not by order: sibling H2s with no H1, skipped levels, a deeper heading closed by a shallower one', () => {
    const paths = (md: string) => parseMarkdown(md).sections.map((s) => s.headingPath);
    // A README whose title is a logo in an HTML <h1> (keyv) opens with "## Features": "## Usage" is its sibling.
    expect(paths('<h1 align="center"><img src="k.svg"></h1>\n\n## Features\nfast\n\n## Usage\nnpm i\n\n### Namespaces\nns\n\n## API\nnew')).toEqual([['Features'], ['Usage'], ['Usage', 'Namespaces'], ['API']]);
    expect(paths('# T\nt\n\n## A\na\n\n#### D\nd\n\n### C\nc\n\n## B\nb')).toEqual([['T'], ['T', 'A'], ['T', 'A', 'D'], ['T', 'A', 'C'], ['T', 'B']]);
    expect(paths('### Deep first\nx\n\n# Top\ny\n\n## Under\nz')).toEqual([['Deep first'], ['Top'], ['Top', 'Under']]);
    expect(parseHtml('<h2>One</h2><p>a</p><h2>Two</h2><p>b</p><h4>Four</h4><p>c</p><h3>Three</h3><p>d</p>').sections.map((s) => s.headingPath)).toEqual([['One'], ['Two'], ['Two', 'Four'], ['Two', 'Three']]);
  });

  it('reads an indented code block as code: a shell comment in it starts no section, and its tags, pipes and stars stay as written; a nested list item indented as far is still a list item', () => {
    // uri-js's README: a tab-indented install snippet whose "# OR" had started a section named "OR".
    const md = '## Usage\nTo load in a browser, use the following tag:\n\n\t<script src="uri.min.js"></script>\n\nThen install:\n\n\tnpm install uri-js\n\t# OR\n\tyarn add uri-js\n\n    cat a.js | terser **x**\n\nAfter it.\n\n## API\nparse';
    const doc = parseMarkdown(md);
    expect(doc.sections.map((s) => s.headingPath)).toEqual([['Usage'], ['API']]);
    const usage = doc.text.slice(doc.sections[0]?.start, doc.sections[0]?.end);
    expect(usage).toContain('<script src="uri.min.js"></script>');
    expect(usage).toContain('npm install uri-js\n# OR\nyarn add uri-js');
    expect(usage).toContain('cat a.js | terser **x**');
    expect(usage).toContain('After it.');
    // Indented lines that continue a paragraph or a list are no code, and a tab is four columns before a heading's #.
    const list = parseMarkdown('# T\n- item one\n    - nested [link](https://x.test)\n\n    more of item one, **bold**\n\nText\n    still text\n\t# not a heading either');
    expect(list.sections.map((s) => s.headingPath)).toEqual([['T']]);
    expect(list.text).toContain('nested link');
    expect(list.text).toContain('more of item one, bold');
    expect(list.text).toContain('still text');
  });

  it('reads an HTML heading block as a heading: a centred title, over lines, a logo by its alt text, an unnamed one dropped, an unclosed one as text', () => {
    const doc = parseMarkdown('<h1 align="center">Picomatch</h1>\n\nFast globs.\n\n## Usage\nx');
    expect(doc.title).toBe('Picomatch');
    expect(doc.sections.map((s) => s.headingPath)).toEqual([['Picomatch'], ['Picomatch', 'Usage']]);
    expect(doc.text).toBe('Fast globs.\n\nx');
    const spread = parseMarkdown('<H2 class="x">\n  Multi <em>line</em>\n</H2> after\nbody');
    expect(spread.sections.map((s) => [s.headingPath, spread.text.slice(s.start, s.end)])).toEqual([[['Multi line'], 'after\nbody']]);
    // keyv's README: a logo is the title, named by its alt text (what a screen reader reads); "## Features" nests under it.
    const logo = parseMarkdown('<h1 align="center">\n\t<img width="250" src="logo.svg" alt="keyv">\n\t<br>\n</h1>\n\n> Simple storage\n\n## Features\nf');
    expect(logo.title).toBe('keyv');
    expect(logo.sections.map((s) => s.headingPath)).toEqual([['keyv'], ['keyv', 'Features']]);
    expect(logo.text).toBe('Simple storage\n\nf');
    expect(parseMarkdown("<h1><a href='/'><img alt='Fast &amp; small' src=l.svg></a> <img alt=Beta src=b.svg></h1>\nx").title).toBe('Fast & small Beta');
    // Read with the HTML parser's tag scanner: an image in a comment is none.
    expect(parseMarkdown('<h1><!-- <img alt="old" src=o.svg> --><img alt="new" src=n.svg></h1>\nx').title).toBe('new');
    // Text wins over alt text; an image with no alt (or an empty one) names nothing.
    expect(parseMarkdown('<h1><img alt="logo" src="l.svg"> Picomatch</h1>\nx').title).toBe('Picomatch');
    const unnamed = parseMarkdown('<h1 align="center"><img src="logo.svg"><img alt="" src="x.svg"></h1>\n\n## Features\nf');
    expect(unnamed.title).toBeUndefined();
    expect(unnamed.sections.map((s) => s.headingPath)).toEqual([['Features']]);
    expect(parseMarkdown('<h2>never closed\n\ntext').text).toBe('never closed\n\ntext');
    // Badges beside a heading's text are decoration, in Markdown headings as in HTML ones (p-queue's, sirv's, loglevel's READMEs).
    expect(parseMarkdown('# p-queue [![Build Status](https://ci.test/b.svg)](https://ci.test) [![codecov](https://c.test/c.svg)](https://c.test)\nx').title).toBe('p-queue');
    expect(parseMarkdown('# sirv ![CI](https://ci.test/badge.svg)\nx').title).toBe('sirv');
    expect(parseMarkdown('# minimist <sup>[![Version Badge][npm-svg]][package-url]</sup>\n\n[npm-svg]: https://v.test\nx').title).toBe('minimist');
    expect(parseMarkdown('Tool ![stars](s.svg)\n===\nx').title).toBe('Tool');
    // Code spans keep their text as written, generics included (msgpack's "decode(buffer: ArrayLike<number>)"); outside them a tag is dropped.
    const code = parseMarkdown('### `decode(buffer: ArrayLike<number>): unknown`\nSee [`Map<K, V>`](https://x.test), **`a &lt; b`**, `\\*` and <b>bold</b>.');
    expect(code.sections.map((s) => s.headingPath)).toEqual([['decode(buffer: ArrayLike<number>): unknown']]);
    expect(code.text).toBe('See Map<K, V>, a &lt; b, \\* and bold.');
    // A control character written as an entity is a space: it can neither stand for a code span's placeholder nor reach the index.
    expect(parseMarkdown('`secret` and &#1;0&#2; &#x7f;x').text).toBe('secret and 0 x');
    expect(parseHtml('<p>a&#1;b&#9;c</p>').text).toBe('a b c');
    // A heading of images only is still named by their alt text.
    expect(parseMarkdown('# ![Gadget](logo.svg)\nx').title).toBe('Gadget');
    expect(parseMarkdown('# [![Gadget](logo.svg)](https://g.test)\n\nSmall tools.\n\n## Install\ny').sections.map((s) => s.headingPath)).toEqual([['Gadget'], ['Gadget', 'Install']]);
    // Every line opening a heading that never closes is looked past a bounded number of lines, no more.
    const started = performance.now();
    expect(parseMarkdown('<h1 id="x">open\n'.repeat(50_000)).sections).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('renders the sample knowledge base into sections with offsets into the text', () => {
    for (const d of SAMPLE_KB) {
      const doc = parseMarkdown(d.markdown);
      expect(doc.sections.length).toBeGreaterThan(1);
      for (const s of doc.sections) expect(doc.text.slice(s.start, s.end).trim()).toBe(doc.text.slice(s.start, s.end));
    }
  });
});

describe('Markdown inline syntax, as READMEs write it', () => {
  const text = (markdown: string) => parseMarkdown(markdown).text;

  it('links, images and badges keep their text; targets with parentheses, spaces or titles go whole', () => {
    expect(text('[![Build Status](https://ci.test/badge.svg)](https://ci.test) ![npm][npm-url] [docs][1]')).toBe('Build Status npm docs');
    expect(text('see [Foo](https://en.wikipedia.org/wiki/Foo_(bar)) and [home](https://x.test "Updated list (JSON)") or [me](https://x.test/Roy Riojas).')).toBe('see Foo and home or me.');
    expect(text('mail <mailto:a@b.test> or <https://x.test/a>')).toBe('mail mailto:a@b.test or https://x.test/a');
  });

  it('strong, strike-through and emphasis lose paired markers only', () => {
    expect(text('**bold**, __init__.py, ~~gone~~, *em*, _em_ and ***both***')).toBe('bold, init.py, gone, em, em and both');
    expect(text('snake_case_name, 2*3*4, a * b, (* and ?), globstars (**), names that start with _.')).toBe('snake_case_name, 2*3*4, a * b, (* and ?), globstars (**), names that start with _.');
    expect(text('**THE SOFTWARE IS PROVIDED ' + 'AS IS, '.repeat(100) + 'WITHOUT WARRANTY**')).not.toContain('**');
    expect(text('\\*not emphasis\\*')).toBe('*not emphasis*');
  });

  it('headings keep a # that belongs to their text; tables read as cells; comments go only when closed', () => {
    expect(parseMarkdown('# C#\nbody').sections[0]?.headingPath).toEqual(['C#']);
    expect(parseMarkdown('## Setup ##\nbody').sections[0]?.headingPath).toEqual(['Setup']);
    expect(text('| a | b |\n|---|---|\n| 1 |  2 |')).toBe('a · b\n1 · 2');
    expect(text('a <!-- hidden --> b <span>c</span>')).toBe('a b c');
    expect(text('Escape <!-- and <script in output')).toBe('Escape <!-- and <script in output');
  });

  it('leaves out an HTML comment over several lines, and script, style and template elements: their text is no passage and their headings start no section; an unclosed one, one in code, and one left open in a paragraph stay text', () => {
    // semver's README: a TODO note for its maintainers, over three lines, had been indexed as "Exported Modules".
    const doc = parseMarkdown('# A\ntext\n<!--\n# Old API\nsecret notes\n-->\nmore\n\n## B\nb <!-- x --> c');
    expect(doc.sections.map((s) => s.headingPath)).toEqual([['A'], ['A', 'B']]);
    expect(doc.text).not.toMatch(/Old API|secret|<!--|-->/);
    expect(doc.text).toContain('more');
    expect(text('a <!-- open\nstill\nclosed --> tail')).toBe('a\n\ntail');
    expect(text('Add `<!-- toc -->` here.\n\n```html\n<!-- kept -->\n```')).toBe('Add <!-- toc --> here.\n\n<!-- kept -->');
    // A comment opened inside a paragraph must close before it ends; one never closed hides nothing.
    expect(text('mid <!-- open\n\npara two\n-->\nend')).toBe('mid <!-- open\n\npara two\n-->\nend');
    expect(parseMarkdown('<!-- never closed\n# H\nhidden').sections.map((s) => s.headingPath)).toEqual([[], ['H']]);
    // A VitePress page's <script setup> and <style> blocks, and an inline script: code the page runs, never shows.
    const page = parseMarkdown('<script setup>\nimport Chart from "./Chart.vue"\n// # not a heading\n</script>\n\n# Title\nbody <script>track()</script> end\n\n<style scoped>\n.x { color: red }\n</style>\n<template>\n<p>slot</p>\n</template>\nafter');
    expect(page.sections.map((s) => s.headingPath)).toEqual([['Title']]);
    expect(page.text).toBe('body end\n\nafter');
    // In code it is what the page shows: an indented block, a code span.
    expect(text('Load it:\n\n    <script src="a.js"></script>\n    <!-- note -->\n\nor `<script>` tags.')).toBe('Load it:\n\n<script src="a.js"></script>\n<!-- note -->\n\nor <script> tags.');
    // Both passes read code alike: a tab-indented "```" is a line of indented code, no fence that would keep the comment after it.
    expect(text('\t```\n\n<!--\nsecret\n-->\nafter')).toBe('```\n\nafter');
  });

  it('a tag whose attributes go on over lines is a tag (READMEs wrap badges so), within bounds', () => {
    // magic-string's README: before, "<img src=…" and "alt=…>" were each left in the text.
    expect(text('<a href="https://ci.test">\n  <img src="https://ci.test/b.svg"\n       alt="build status">\n</a>\n\nSuppose you have some code.')).toBe('Suppose you have some code.');
    // ignore's: the attributes one per line, a self-closing tag and the link's end on the last.
    expect(text('<td>\n<img\n  src="https://ci.test/b.svg"\n  alt="Build Status" /></a>\n</td>\nText')).toBe('Text');
    // A blank line ends it, and so does a new tag or TAG_LINES lines; the lines are then read as they are.
    expect(text('a <b\n\nc > d')).toBe('a <b\n\nc > d');
    expect(text('x <img src="a"\n<b>bold</b>')).toBe('x <img src="a"\nbold');
    // A fence or a heading is never swallowed into a tag: "a > b" stays code, and the heading a heading.
    expect(parseMarkdown('if x <y\n```\na > b\n```\n## Next\nz').sections.map((s) => s.headingPath)).toEqual([[], ['Next']]);
    expect(parseMarkdown('if x <y\n## Next >\nz').sections.map((s) => s.headingPath)).toEqual([[], ['Next >']]);
    expect(text(`<img src="a"\n${'line\n'.repeat(12)}alt="z">\nend`)).toContain('<img src="a"');
    // Each line looks ahead a bounded number of lines: 240,000 lines of tags left open parse in linear time.
    const started = performance.now();
    expect(text(`<img a\n${'b\n'.repeat(11)}`.repeat(20_000))).toContain('<img a');
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('entity references read as the characters they name, except in code', () => {
    const doc = parseMarkdown('## .filter(paths: Array&lt;Pathname&gt;)\nTom &amp; Jerry&nbsp;&#8212; `a &lt; b` and &bogus;');
    expect(doc.sections[0]?.headingPath).toEqual(['.filter(paths: Array<Pathname>)']);
    expect(doc.text).toBe('Tom & Jerry — a &lt; b and &bogus;');
    expect(text('```\nif (a &lt; b) {}\n```')).toBe('if (a &lt; b) {}');
    // Decoded after tags are stripped: an escaped tag is text, not markup.
    expect(text('write &lt;b&gt; for bold')).toBe('write <b> for bold');
  });
});

// A hang guard, not a speed goal: each case takes tens of milliseconds; before, a pattern rescanned the rest of
// the line from each opening character: 11–40 s or more per case at these sizes (a 1 MB line of spaces about
// 15 minutes), in the retrieval worker, where every search waits behind the parse. 5 s separates the two by far.
describe('hostile lines parse in linear time', { timeout: 5_000 }, () => {
  const n = 200_000;
  const lines: Record<string, string> = {
    'a run of spaces in a table row': `a${' '.repeat(n)}b | c`,
    'a run of spaces after a heading': `# a${' '.repeat(n)}b`,
    'unclosed brackets and link targets': '['.repeat(n / 2) + ']('.repeat(n / 4),
    'unclosed images': '!['.repeat(n / 2),
    'unpaired emphasis': '*a '.repeat(n / 3),
    'unpaired strong and strike-through': '**a __b ~~c '.repeat(n / 12),
    'unclosed tags': '<a '.repeat(n / 3),
    'unclosed quoted attributes': '<a title="'.repeat(n / 5),
    'unclosed comments': '<!--'.repeat(n / 2),
    'unclosed autolinks': '<http:'.repeat(n / 6),
  };
  for (const [name, line] of Object.entries(lines)) {
    it(name, () => {
      for (const parse of [parseMarkdown, parseHtml, parsePlainText]) {
        const doc = parse(line);
        expect(doc.text.length).toBeLessThanOrEqual(line.length);
        expect(chunkDocument(doc, undefined, words).length).toBeGreaterThanOrEqual(0);
      }
    });
  }
});

describe('HTML', () => {
  it('keeps visible text only, with headings as the path', () => {
    const doc = parseHtml(`<!doctype html><html><head><title>Help &amp; FAQ</title><style>p{}</style><script>alert(1)</script></head>
      <body><nav hidden>menu</nav><h1>Refunds</h1><p>Within <b>30&nbsp;days</b>.<br>Really&#33;</p>
      <div style="display:none">secret</div><h2>Damaged</h2><ul><li>photo</li><li>replacement</li></ul>
      <template><p>tpl</p></template><!-- comment --><p aria-hidden="true">aria</p><p>&#x1F600; &bogus; &lt;tag&gt;</p></body></html>`);
    expect(doc.title).toBe('Help & FAQ');
    expect(doc.text).not.toMatch(/alert|menu|secret|tpl|comment|aria|p\{\}/);
    expect(doc.text).toContain('Within 30 days.\nReally!');
    expect(doc.text).toContain('😀 &bogus; <tag>');
    expect(doc.sections.map((s) => s.headingPath)).toEqual([['Refunds'], ['Refunds', 'Damaged']]);
  });

  it('names a heading of images only by their alt text, as a screen reader does; its own text wins', () => {
    const doc = parseHtml('<h1><a href="/"><img src="logo.svg" alt="Acme &amp; Co"></a></h1><p>intro</p><h2><img src="i.svg" alt="">Setup</h2><p>s</p><h2><img src="x.svg"></h2><p>t</p>');
    expect(doc.title).toBe('Acme & Co');
    expect(doc.sections.map((s) => s.headingPath)).toEqual([['Acme & Co'], ['Acme & Co', 'Setup'], ['Acme & Co']]);
    // Alt text outside headings stays out of the text (it never was read as text here).
    expect(parseHtml('<p>a <img alt="pic"> b</p>').text).toBe('a b');
  });

  it('survives deeply nested and malformed markup in linear time', () => {
    const nested = '<div>'.repeat(50_000) + 'deep' + '</div>'.repeat(50_000);
    expect(parseHtml(nested).text).toBe('deep');
    expect(parseHtml('<p title="unclosed>text <b>bold</b>').text).toContain('bold');
    expect(parseHtml('<script>never closed').text).toBe('');
  });
});

describe('plain text', () => {
  it('normalizes line ends, control characters and lone surrogates', () => {
    const doc = parsePlainText('a\r\nb\u0000c\n\n\n\nd \uD800 e');
    expect(doc.text).toBe('a\nb c\n\nd \uFFFD e');
    expect(parsePlainText('   \n\t\n').text).toBe('');
    expect(parsePlainText('').sections).toEqual([]);
  });
});

describe('chunker', () => {
  const sentence = (i: number) => `Sentence number ${i} has exactly seven words.`;
  const long = parsePlainText(Array.from({ length: 40 }, (_, i) => sentence(i)).join(' '));

  it('packs whole sentences within the token budget, with overlap, covering all text', () => {
    const chunks = chunkDocument(long, undefined, words, { maxTokens: 30, overlapTokens: 8 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) {
      expect(words(c.context)).toBeLessThanOrEqual(30);
      expect(long.text.slice(c.start, c.end)).toBe(c.text);
      expect(c.text.endsWith('.')).toBe(true);
    }
    for (let i = 1; i < chunks.length; i++) expect(chunks[i]!.start).toBeLessThan(chunks[i - 1]!.end); // overlap
    expect(chunks[0]!.start).toBe(0);
    expect(chunks.at(-1)!.end).toBe(long.text.length);
  });

  it('never crosses a heading and puts title + path in the context', () => {
    const doc = parseMarkdown('# Refunds\n## Window\nThirty days.\n## Damaged\nPhoto needed.');
    const chunks = chunkDocument(doc, 'Refund policy', words);
    expect(chunks.map((c) => c.context)).toEqual(['Refund policy › Refunds › Window\nThirty days.', 'Refund policy › Refunds › Damaged\nPhoto needed.']);
  });

  it('cuts a giant line with no sentence end into bounded windows', () => {
    const doc = parsePlainText('word '.repeat(10_000));
    const chunks = chunkDocument(doc, undefined, words, { maxTokens: 64, overlapTokens: 0 });
    expect(chunks.every((c) => words(c.text) <= 64)).toBe(true);
    expect(chunks.reduce((n, c) => n + words(c.text), 0)).toBe(10_000);
  });

  it('bounds token-dense text without spaces', () => {
    const perChar = (s: string) => [...s].length;
    const doc = parsePlainText('退'.repeat(5_000));
    const chunks = chunkDocument(doc, undefined, perChar, { maxTokens: 100, overlapTokens: 0 });
    expect(chunks.every((c) => perChar(c.text) <= 100)).toBe(true);
    expect(chunks.map((c) => c.text).join('')).toBe(doc.text);
  });

  it('rejects bad options with a typed error and yields nothing for empty text', () => {
    expect(() => chunkDocument(long, undefined, words, { maxTokens: 2 })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => chunkDocument(long, undefined, words, { maxTokens: 50, overlapTokens: 50 })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(chunkDocument(parsePlainText(''), undefined, words)).toEqual([]);
  });
});
