/**
 * The element's shadow stylesheet. Every colour, font and radius comes from a
 * --threadline-* custom property, so a host page themes the box without
 * reaching into its shadow root.
 */
import { LAUNCHER_CSS } from './launcher';

export const ELEMENT_CSS = `
:host {
  --_bg: var(--threadline-bg, #ffffff);
  --_fg: var(--threadline-fg, #1d2330);
  --_muted: var(--threadline-muted, #5b6474);
  --_accent: var(--threadline-accent, #2457c5);
  --_accent-fg: var(--threadline-accent-fg, #ffffff);
  --_border: var(--threadline-border, #d6dae3);
  --_user-bg: var(--threadline-user-bg, #eef2fb);
  --_danger: var(--threadline-danger, #b3261e);
  --_radius: var(--threadline-radius, 10px);
  display: block;
  font: var(--threadline-font, 15px/1.5 system-ui, sans-serif);
  color: var(--_fg);
  background: var(--_bg);
  border: 1px solid var(--_border);
  border-radius: var(--_radius);
  max-width: var(--threadline-max-width, 42rem);
}
@media (prefers-color-scheme: dark) {
  :host {
    --_bg: var(--threadline-bg, #16191f);
    --_fg: var(--threadline-fg, #e4e7ee);
    --_muted: var(--threadline-muted, #a3abba);
    --_accent: var(--threadline-accent, #8ab4ff);
    --_accent-fg: var(--threadline-accent-fg, #0d1422);
    --_border: var(--threadline-border, #343a46);
    --_user-bg: var(--threadline-user-bg, #222a3a);
    /* The light palette's red reads at 2.7:1 on the dark background; this one at 7.7:1. */
    --_danger: var(--threadline-danger, #ff8a80);
  }
}
:host([hidden]) { display: none; }
* { box-sizing: border-box; }
/* The hidden attribute wins over every display rule here (hidden sources, bars, suggestions). */
[hidden] { display: none !important; }
.panel { display: flex; flex-direction: column; gap: .5rem; padding: .75rem; max-height: min(var(--threadline-height, 32rem), 100dvh); }
/* On a phone the box is never taller than the screen, so its input and the answer above it fit in one view. */
@media (max-width: 640px) { :host { border-radius: 0; border-left: 0; border-right: 0; } .panel { max-height: min(var(--threadline-height, 32rem), calc(100dvh - 1rem)); } }
.status { margin: 0; font-size: .85em; color: var(--_muted); }
.status[data-state="error"] { color: var(--_danger); }
progress { width: 100%; height: .4rem; }
.suggestions { display: flex; flex-wrap: wrap; gap: .4rem; }
.tl-copy, .tl-show-passages { font: inherit; font-size: .8em; color: var(--_muted); background: none; border: 1px solid var(--_border); border-radius: 6px; padding: 0 .4rem; cursor: pointer; }
.log { list-style: none; margin: 0; padding: 0; overflow-y: auto; flex: 1; }
.tl-turn { margin: 0 0 1rem; }
/* A long log's turns out of view skip layout (src/render/long-log.ts). */
.log.tl-long > .tl-turn { content-visibility: auto; contain-intrinsic-size: auto 8rem; }
.tl-earlier { margin: 0 0 1rem; text-align: center; }
.tl-user { margin: 0 0 .4rem auto; padding: .4rem .7rem; background: var(--_user-bg); border-radius: var(--_radius); width: fit-content; max-width: 85%; white-space: pre-wrap; overflow-wrap: anywhere; }
.tl-rewrite, .tl-mode { margin: .2rem 0; font-size: .8em; color: var(--_muted); }
.tl-mode.tl-error { color: var(--_danger); }
.tl-answer { overflow-wrap: anywhere; }
.tl-answer :is(p, ul, ol, pre, blockquote) { margin: .4rem 0; }
.tl-answer pre { overflow-x: auto; padding: .5rem; background: var(--_user-bg); border-radius: 6px; }
.tl-answer button[data-cite], .tl-source-toggle { font: inherit; font-size: .85em; color: var(--_accent); background: none; border: 1px solid var(--_border); border-radius: 6px; padding: 0 .3rem; cursor: pointer; }
.tl-image { color: var(--_muted); font-style: italic; }
.tl-sources { list-style: none; margin: .3rem 0 0; padding: 0; display: flex; flex-direction: column; gap: .2rem; font-size: .9em; }
.tl-source.tl-cited .tl-source-toggle { border-color: var(--_accent); }
.tl-source-label { color: var(--_muted); font-size: .85em; }
.tl-passage { margin: .2rem 0 .4rem; padding: .4rem .6rem; border-left: 3px solid var(--_accent); white-space: pre-wrap; overflow-wrap: anywhere; }
.tl-passage-text { margin: 0; }
mark.tl-highlight { background: color-mix(in srgb, var(--_accent) 22%, transparent); color: inherit; border-radius: 2px; }
.tl-show-passages { margin-left: .3rem; }
.tl-passage-link { color: var(--_accent); }
form { display: flex; gap: .4rem; }
input { flex: 1; font: inherit; color: inherit; background: var(--_bg); padding: .45rem .6rem; border: 1px solid var(--_border); border-radius: var(--_radius); min-width: 0; }
button.primary { font: inherit; padding: .45rem .9rem; border: 0; border-radius: var(--_radius); background: var(--_accent); color: var(--_accent-fg); cursor: pointer; }
button.secondary { font: inherit; padding: .45rem .7rem; border: 1px solid var(--_border); border-radius: var(--_radius); background: none; color: inherit; cursor: pointer; }
/* Windows high contrast (forced colours): a translucent highlight keeps its alpha over the forced background, so the
   quoted sentence read black on dark olive; and a button without a border reads as plain text. */
@media (forced-colors: active) {
  mark.tl-highlight { background: Mark; color: MarkText; }
  button.primary { border: 1px solid ButtonText; }
}
button:disabled, input:disabled { opacity: .55; cursor: not-allowed; }
:focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
${LAUNCHER_CSS}`;
