/**
 * A small knowledge base written for threadline: the help pages of "Lumen",
 * a fictional note-taking app with a shop. The demo loads it, and the tests
 * use it as the support corpus: a refund policy whose damaged-on-arrival clause
 * competes with a warranty section on items damaged by misuse (no refund), as
 * real help centres often read; plus refund timing, plans, shipping, sync.
 */
export interface SampleDoc {
  id: string;
  title: string;
  url: string;
  markdown: string;
}

export const SAMPLE_KB: readonly SampleDoc[] = [
  {
    id: 'refunds',
    title: 'Refund policy',
    url: '/help/refunds',
    markdown: `# Refund policy

## Refund window
You can return any Lumen product within 30 days of delivery for a full refund. Start a return from the Orders page; we email a prepaid return label.

## Damaged on arrival
If your order arrives damaged or broken in transit, the refund window is longer: report it within 60 days with a photo of the package and we refund the full price or send a replacement. You keep nothing to ship back.

## Refund processing time
Once a return reaches our warehouse, the refund is processed within 5 business days. Your bank may take another 3 to 5 days to show the money on your card statement.
`,
  },
  {
    id: 'warranty',
    title: 'Warranty and misuse',
    url: '/help/warranty',
    markdown: `# Warranty

## Hardware warranty
Lumen pens and tablets carry a one-year limited warranty against manufacturing defects. Repairs under warranty are free.

## Damage from misuse
Items damaged by misuse, drops, water or unauthorised repairs are not covered. There is no refund and no free replacement for misuse; we can quote a paid repair instead.
`,
  },
  {
    id: 'plans',
    title: 'Plans and pricing',
    url: '/help/plans',
    markdown: `# Plans and pricing

## Free plan
The Free plan syncs up to 100 notes across two devices and costs nothing.

## Plus plan
Plus costs $4 a month. It adds unlimited notes, offline mode on every device and version history for 30 days.

## Pro plan
Pro costs $9 a month. It includes everything in Plus, shared team notebooks, admin controls and version history kept forever.

## Which plan is cheaper per year
Paying yearly saves two months: Plus is $40 a year and Pro is $90 a year.
`,
  },
  {
    id: 'shipping',
    title: 'Shipping and order tracking',
    url: '/help/shipping',
    markdown: `# Shipping

## Delivery times
Standard shipping takes 3 to 7 business days; express shipping arrives in 1 to 2 business days.

## Tracking your order
Every shipment gets a tracking number by email. You can also track an order from the Orders page in your account.

## International orders
We ship to 40 countries. Import duties and taxes are paid by the customer on delivery.
`,
  },
  {
    id: 'sync',
    title: 'Sync and offline mode',
    url: '/help/sync',
    markdown: `# Sync

## How sync works
Notes sync through end-to-end encrypted storage. Changes appear on your other devices within a few seconds.

## Offline mode
With offline mode, notes are stored on the device and editable without a connection; edits sync when you reconnect.

## Sync conflicts
When two devices edit the same note offline, Lumen keeps both versions and marks the note as a conflict for you to merge.
`,
  },
  {
    id: 'account',
    title: 'Account and security',
    url: '/help/account',
    markdown: `# Account

## Resetting your password
Use "Forgot password" on the sign-in page. The reset link in the email expires after one hour.

## Two-factor authentication
Turn on two-factor authentication under Settings, Security. Lumen supports authenticator apps and hardware security keys.

## Deleting your account
Deleting your account erases all notes from our servers within 30 days. Export your notes first if you want to keep them.
`,
  },
];
