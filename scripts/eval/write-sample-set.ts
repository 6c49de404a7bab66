/**
 * Writes docs/eval-sample/, docs/eval-sample-2/ and docs/eval-sample-3/: evaluation sets of our
 * own, in the format of shared/eval/README.md, over the playground's sample
 * knowledge base (one passage per section). The first set's conversations were
 * written by hand as a visitor would talk, with human rewrites and gold
 * sections, before the condenser was run on them; they are not tuned to it.
 * The second set's were written the same way later (2026-11-24) and tried in
 * the browser before their rewrites and gold sections were written down; three
 * of their failures led to rules (a name put in place of the name it contrasts
 * with, "my …" as a verb's object, acronyms as names), so it is not held out.
 * `npm run eval -- --data docs/eval-sample` (or `docs/eval-sample-2`, `docs/eval-sample-3`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SAMPLE_KB } from '../../demo/sample-kb';

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const passages = SAMPLE_KB.flatMap((doc) => doc.markdown.split(/^## /m).slice(1).map((section) => {
  const [heading = '', ...body] = section.split('\n');
  return { id: `${doc.id}/${slug(heading)}`, text: `${doc.title} › ${heading}. ${body.join(' ').trim()}`, source: `demo/sample-kb.ts#${doc.id}` };
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

const SECOND: typeof CONVERSATIONS = [
  ['tablet', [
    turn('can I get my money back for a tablet?', 'can I get my money back for a tablet?', 'refunds/refund-window', 'first'),
    turn('what if it came broken?', 'what if the tablet arrived broken?', 'refunds/damaged-on-arrival', 'followup'),
    turn('how long does that take?', 'how long does the refund for a broken tablet take?', 'refunds/refund-processing-time', 'followup'),
  ]],
  ['pro-plus', [
    turn('How much is the Pro plan?', 'How much is the Pro plan?', 'plans/pro-plan', 'first'),
    turn('and Plus?', 'How much is the Plus plan?', 'plans/plus-plan', 'followup'),
    turn('which one is cheaper per year?', 'which plan is cheaper per year, Plus or Pro?', 'plans/which-plan-is-cheaper-per-year', 'followup'),
  ]],
  ['late-order', [
    turn('my order hasnt arrived', 'my order hasnt arrived', 'shipping/tracking-your-order', 'first'),
    turn('how do i track it', 'how do i track my order', 'shipping/tracking-your-order', 'followup'),
    turn('what about orders to canada?', 'do you ship orders to Canada?', 'shipping/international-orders', 'followup'),
  ]],
  ['offline', [
    turn('does it work offline?', 'does it work offline?', 'sync/offline-mode', 'first'),
    turn('what happens when two devices edit the same note?', 'what happens when two devices edit the same note?', 'sync/sync-conflicts', 'standalone'),
    turn('how do I fix that?', 'how do I fix a sync conflict?', 'sync/sync-conflicts', 'followup'),
  ]],
  ['security', [
    turn('I forgot my password', 'I forgot my password', 'account/resetting-your-password', 'first'),
    turn('I also want to turn on 2FA', 'I also want to turn on 2FA', 'account/two-factor-authentication', 'standalone'),
    turn('how do I delete my account instead?', 'how do I delete my account instead?', 'account/deleting-your-account', 'standalone'),
  ]],
  ['free', [
    turn('is there a free plan?', 'is there a free plan?', 'plans/free-plan', 'first'),
    turn('what are its limits?', 'what are the limits of the free plan?', 'plans/free-plan', 'followup'),
  ]],
  ['abroad', [
    turn('how long does shipping take', 'how long does shipping take', 'shipping/delivery-times', 'first'),
    turn('and internationally?', 'how long does international shipping take?', 'shipping/international-orders', 'followup'),
    turn('do I pay customs?', 'do I pay customs on international orders?', 'shipping/international-orders', 'followup'),
  ]],
  ['history', [
    turn('what does Plus cost?', 'what does Plus cost?', 'plans/plus-plan', 'first'),
    turn('does it include version history?', 'does the Plus plan include version history?', 'plans/plus-plan', 'followup'),
    turn('what about Pro?', 'does the Pro plan include version history?', 'plans/pro-plan', 'followup'),
  ]],
  ['refund-speed', [
    turn('how fast are refunds?', 'how fast are refunds?', 'refunds/refund-processing-time', 'first'),
    turn('and if the item was damaged?', 'how fast are refunds if the item was damaged?', 'refunds/damaged-on-arrival', 'followup'),
    turn('do I need to send it back?', 'do I need to send a damaged item back?', 'refunds/damaged-on-arrival', 'followup'),
  ]],
  ['two-factor', [
    turn('how do I turn on two-factor authentication?', 'how do I turn on two-factor authentication?', 'account/two-factor-authentication', 'first'),
    turn('which apps can I use?', 'which authenticator apps can I use for two-factor authentication?', 'account/two-factor-authentication', 'followup'),
    turn('can I use a hardware key instead?', 'can I use a hardware security key for two-factor authentication instead?', 'account/two-factor-authentication', 'followup'),
  ]],
  ['package', [
    turn('where is my package?', 'where is my package?', 'shipping/tracking-your-order', 'first'),
    turn('how long is standard delivery?', 'how long is standard delivery?', 'shipping/delivery-times', 'standalone'),
    turn('what about express?', 'how long is express delivery?', 'shipping/delivery-times', 'followup'),
  ]],
];

/**
 * The third set (2026-11-25): written after the first two rules of that day's round (a pronoun's
 * determiner, a lower-case remnant's correlate) and run before any other change; two of its failures
 * ("and per year?", "what about the Pro plan?") led to the prepositional and determiner remnants, so it
 * is not held out either.
 */
const THIRD: [string, ReturnType<typeof turn>[]][] = [
  ['water-damage', [
    turn('does the warranty cover tablets?', 'does the warranty cover tablets?', 'warranty/hardware-warranty', 'first'),
    turn('what about water damage?', 'does the warranty cover water damage?', 'warranty/damage-from-misuse', 'followup'),
    turn('can I still get it repaired?', 'can I get a water damaged tablet repaired?', 'warranty/damage-from-misuse', 'followup'),
  ]],
  ['plus-yearly', [
    turn('how much is Plus per month?', 'how much is Plus per month?', 'plans/plus-plan', 'first'),
    turn('and per year?', 'how much is Plus per year?', 'plans/which-plan-is-cheaper-per-year', 'followup'),
    turn('does it keep version history?', 'does Plus keep version history?', 'plans/plus-plan', 'followup'),
  ]],
  ['cracked-tablet', [
    turn('my tablet arrived cracked', 'my tablet arrived cracked', 'refunds/damaged-on-arrival', 'first'),
    turn('how long do I have to report it?', 'how long do I have to report a tablet that arrived damaged?', 'refunds/damaged-on-arrival', 'followup'),
    turn('and when will I get the money?', 'when will I get the refund for a damaged tablet?', 'refunds/refund-processing-time', 'followup'),
  ]],
  ['plane', [
    turn('can I edit notes on a plane?', 'can I edit notes offline?', 'sync/offline-mode', 'first'),
    turn('what if I change the same note on my phone too?', 'what if I edit the same note offline on two devices?', 'sync/sync-conflicts', 'followup'),
    turn('is it encrypted?', 'is synced data encrypted?', 'sync/how-sync-works', 'followup'),
  ]],
  ['reset-email', [
    turn('the reset email never came', 'the password reset email never came', 'account/resetting-your-password', 'first'),
    turn('how long does the link last?', 'how long does the password reset link last?', 'account/resetting-your-password', 'followup'),
    turn('can I add a security key too?', 'can I add a hardware security key for two-factor authentication?', 'account/two-factor-authentication', 'followup'),
  ]],
  ['japan', [
    turn('do you deliver to Japan?', 'do you ship to Japan?', 'shipping/international-orders', 'first'),
    turn('who pays the import tax?', 'who pays import duties on international orders?', 'shipping/international-orders', 'followup'),
    turn('how fast is express?', 'how fast is express shipping?', 'shipping/delivery-times', 'followup'),
  ]],
  ['close-account', [
    turn('what happens to my notes if I close my account?', 'what happens to my notes if I delete my account?', 'account/deleting-your-account', 'first'),
    turn('can I export them first?', 'can I export my notes before deleting my account?', 'account/deleting-your-account', 'followup'),
  ]],
  ['free-devices', [
    turn('is the free plan really free?', 'is the free plan really free?', 'plans/free-plan', 'first'),
    turn('how many devices can it sync?', 'how many devices can the free plan sync?', 'plans/free-plan', 'followup'),
    turn('what about the Pro plan?', 'how many devices can the Pro plan sync?', 'plans/pro-plan', 'followup'),
  ]],
];

function write(folder: string, prefix: string, conversations: typeof CONVERSATIONS): void {
  const dir = resolve(import.meta.dirname, '../../docs', folder);
  mkdirSync(dir, { recursive: true });
  writeFileSync(resolve(dir, 'corpus.jsonl'), passages.map((p) => JSON.stringify(p)).join('\n') + '\n');
  writeFileSync(resolve(dir, 'conversations.jsonl'), conversations.map(([id, turns]) => JSON.stringify({
    id: `${prefix}-${id}`, turns: turns.map((t, i) => ({ id: `${prefix}-${id}-${i + 1}`, user: t.user, rewrite: t.rewrite, assistant: '', gold: t.gold, kind: t.kind })),
  })).join('\n') + '\n');
  console.log(`wrote ${passages.length} passages and ${conversations.length} conversations to ${dir}`);
}

write('eval-sample', 'sample', CONVERSATIONS);
write('eval-sample-2', 'sample2', SECOND);
write('eval-sample-3', 'sample3', THIRD);
