/**
 * Writes docs/eval-sample/: an evaluation set of our own, in the format of
 * shared/eval/README.md, over the playground's sample knowledge base (one
 * passage per section). The conversations were written by hand as a visitor
 * would talk, with human rewrites and gold sections, before the condenser
 * was run on them; they are not tuned to it. `npm run eval -- --data docs/eval-sample`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SAMPLE_KB } from '../../demo/sample-kb';

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const passages = SAMPLE_KB.flatMap((doc) => doc.markdown.split(/^## /m).slice(1).map((section) => {
  const [heading = '', ...body] = section.split('\n');
  return { id: `${doc.id}/${slug(heading)}`, text: `${doc.title} › ${heading}. ${body.join(' ').trim()}` };
}));

type Kind = 'first' | 'standalone' | 'followup';
const turn = (user: string, rewrite: string, gold: string, kind: Kind) => ({ user, rewrite, gold: [gold], kind });
const CONVERSATIONS: [string, ReturnType<typeof turn>[]][] = [
  ['returns', [
    turn('how long do I have to return something?', 'how long do I have to return something?', 'refunds/refund-window', 'first'),
    turn('what about damaged items?', 'how long do I have to return damaged items?', 'refunds/damaged-on-arrival', 'followup'),
    turn('and how long until I get my money back?', 'how long until I get my money back after a return?', 'refunds/refund-processing-time', 'followup'),
  ]],
  ['plans', [
    turn('what does the Plus plan cost?', 'what does the Plus plan cost?', 'plans/plus-plan', 'first'),
    turn('and Pro?', 'what does the Pro plan cost?', 'plans/pro-plan', 'followup'),
    turn('which one is cheaper if I pay for a year?', 'which plan is cheaper if I pay yearly?', 'plans/which-plan-is-cheaper-per-year', 'followup'),
    turn('does it have shared notebooks?', 'does the Pro plan have shared team notebooks?', 'plans/pro-plan', 'followup'),
  ]],
  ['sync', [
    turn('how does sync work?', 'how does sync work?', 'sync/how-sync-works', 'first'),
    turn('can I use it without internet?', 'can I use Lumen notes without an internet connection?', 'sync/offline-mode', 'followup'),
    turn('what happens if I edit the same note on two devices?', 'what happens if I edit the same note on two devices offline?', 'sync/sync-conflicts', 'followup'),
    turn('is my data encrypted?', 'is my synced data encrypted?', 'sync/how-sync-works', 'followup'),
  ]],
  ['shipping', [
    turn('how long does shipping take?', 'how long does shipping take?', 'shipping/delivery-times', 'first'),
    turn('can I see where my package is?', 'how can I track my order?', 'shipping/tracking-your-order', 'followup'),
    turn('do you ship abroad?', 'do you ship internationally?', 'shipping/international-orders', 'followup'),
    turn('who pays the taxes then?', 'who pays import duties and taxes on international orders?', 'shipping/international-orders', 'followup'),
  ]],
  ['account', [
    turn('I forgot my password', 'I forgot my password', 'account/resetting-your-password', 'first'),
    turn('how long is the link valid?', 'how long is the password reset link valid?', 'account/resetting-your-password', 'followup'),
    turn('how do I turn on two-factor authentication?', 'how do I turn on two-factor authentication?', 'account/two-factor-authentication', 'standalone'),
    turn('does it work with a hardware key?', 'does two-factor authentication work with a hardware security key?', 'account/two-factor-authentication', 'followup'),
  ]],
  ['warranty', [
    turn('what does the warranty cover?', 'what does the warranty cover?', 'warranty/hardware-warranty', 'first'),
    turn('what if I dropped it?', 'is damage from dropping the pen covered by the warranty?', 'warranty/damage-from-misuse', 'followup'),
    turn('can you repair it anyway?', 'can you repair a pen damaged by misuse?', 'warranty/damage-from-misuse', 'followup'),
  ]],
  ['deleting', [
    turn('how do I delete my account?', 'how do I delete my account?', 'account/deleting-your-account', 'first'),
    turn('will my notes be gone right away?', 'are my notes erased right away when I delete my account?', 'account/deleting-your-account', 'followup'),
    turn('what plan do I need for version history forever?', 'what plan do I need for version history forever?', 'plans/pro-plan', 'standalone'),
  ]],
];

const dir = resolve(import.meta.dirname, '../../docs/eval-sample');
mkdirSync(dir, { recursive: true });
writeFileSync(resolve(dir, 'corpus.jsonl'), passages.map((p) => JSON.stringify({ ...p, source: 'demo/sample-kb.ts' })).join('\n') + '\n');
writeFileSync(resolve(dir, 'conversations.jsonl'), CONVERSATIONS.map(([id, turns]) => JSON.stringify({
  id: `sample-${id}`, turns: turns.map((t, i) => ({ id: `sample-${id}-${i + 1}`, user: t.user, rewrite: t.rewrite, assistant: '', gold: t.gold, kind: t.kind })),
})).join('\n') + '\n');
console.log(`wrote ${passages.length} passages and ${CONVERSATIONS.length} conversations to ${dir}`);
