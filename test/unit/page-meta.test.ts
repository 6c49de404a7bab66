import { describe, expect, it } from 'vitest';
import { baseUrlProblem, pageTitle, pageUrl } from '../../src/cli/page-meta';

describe('pageTitle (the CLI and the Vite plugin title each file with it)', () => {
  const md = (text: string) => pageTitle(text, 'markdown', 'docs/guide/install.md');
  const html = (text: string) => pageTitle(text, 'html', 'site/faq.html');

  it('takes a Markdown file\'s front-matter title, else its # title, else its first heading, else the file name', () => {
    expect(md('---\ntitle: "Install & run"\nlayout: page\n---\n\n# Other\n')).toBe('Install & run');
    expect(md('Intro.\n\n## Installing Harbor\n\nRun it.\n')).toBe('Installing Harbor');
    expect(md('# Harbor\n\n## Install\n\nRun it.\n')).toBe('Harbor');
    expect(md('Harbor guide\n============\n\nText.\n')).toBe('Harbor guide');
    expect(md('Just text, no heading.\n')).toBe('install');
    expect(md(`# ${'Long '.repeat(100)}\n\nx`)).toHaveLength(200);
  });

  it('reads headings as the indexer does: not inside code, HTML heading blocks and logos included', () => {
    // A shell comment in a fenced block opened the file: the old pattern titled it "install dependencies".
    expect(md('```sh\n# install dependencies\nnpm ci\n```\n\n# Harbor\n\nText.\n')).toBe('Harbor');
    expect(md('<h1 align="center">Picomatch</h1>\n\nFast globs.\n')).toBe('Picomatch');
    expect(md('<h1 align="center">\n  <img src="logo.svg" alt="keyv">\n</h1>\n\n## Features\nf\n')).toBe('keyv');
  });

  it('takes an HTML file\'s <title>, else its first heading (a logo by its alt text), never one inside a script or comment', () => {
    expect(html('<html><head><title>FAQ &amp; help</title></head><body><h1>Questions</h1></body></html>')).toBe('FAQ & help');
    expect(html('<body><script>let s = "<h1>nope</h1>";</script><!-- <h1>old</h1> --><h1>Questions &amp; answers</h1><p>x</p></body>')).toBe('Questions & answers');
    expect(html('<body><h1><img src="l.svg" alt="Harbor"></h1><p>x</p></body>')).toBe('Harbor');
    expect(html('<body><p>No heading at all.</p></body>')).toBe('faq');
  });
});

describe('pageUrl', () => {
  it('links a source file as the page built from it under a base URL', () => {
    expect(pageUrl('guide/install.md', 'https://example.com/docs', '.html')).toBe('https://example.com/docs/guide/install.html');
    expect(pageUrl('guide/install.md', undefined, '.html')).toBe('guide/install.md');
  });

  it('takes a path from the site\'s root as the base (a site served from any host), and says what a base must be', () => {
    expect(pageUrl('guide/install.md', '/docs', '.html')).toBe('/docs/guide/install.html');
    expect(pageUrl('guide/my page.md', '/', '')).toBe('/guide/my%20page');
    expect(baseUrlProblem('/docs/')).toBeNull();
    expect(baseUrlProblem('https://example.com/docs/')).toBeNull();
    for (const bad of ['docs/', '//cdn.example/docs/', 'example.com', 'javascript:alert(1)', 'file:///srv/docs/', 'data:text/html,x']) expect(baseUrlProblem(bad)).toMatch(/neither an absolute http\(s\) URL .* nor a path from the site's root/);
  });
});
