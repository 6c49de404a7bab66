/**
 * `mode="launcher"`: the element as a button in the page's corner that opens
 * the chat as a panel (full screen on a phone). Nothing loads until the first
 * open, so a site can put it on every page at the cost of one small script.
 * Escape (with no answer running) or the close button closes it, and focus
 * returns to the button.
 */
export interface Launcher {
  button: HTMLButtonElement;
  close: HTMLButtonElement;
}

export function createLauncher(): Launcher {
  const button = Object.assign(document.createElement('button'), { type: 'button', className: 'launcher primary', textContent: 'Ask the docs' });
  button.setAttribute('part', 'launcher');
  button.setAttribute('aria-haspopup', 'dialog');
  const close = Object.assign(document.createElement('button'), { type: 'button', className: 'close secondary', textContent: '×', title: 'Close' });
  close.setAttribute('aria-label', 'Close the chat');
  close.setAttribute('part', 'close-button');
  return { button, close };
}

/** The layout in which an open launcher's panel covers the whole screen (LAUNCHER_CSS below): there it is modal. */
export const FULL_SCREEN = '(max-width: 640px)';

/**
 * Tab and Shift+Tab go round within `panel` while `modal()` holds. A panel that covers the screen hides the page, and
 * focus had moved on from its last button to the page's links, behind it where nobody could see it (WCAG 2.4.11);
 * aria-modal (set with the dialog role) tells a screen reader the same. A floating panel leaves the page usable.
 */
export function wrapFocus(panel: HTMLElement, root: ShadowRoot, modal: () => boolean): void {
  panel.addEventListener('keydown', (event) => {
    if (event.key !== 'Tab' || !modal()) return;
    const stops = [...panel.querySelectorAll<HTMLElement>('button, input, select, textarea, a[href], [tabindex]:not([tabindex="-1"])')]
      .filter((el) => !(el as HTMLButtonElement).disabled && el.getClientRects().length > 0);
    const first = stops[0];
    const last = stops.at(-1);
    if (!first || !last) return;
    const active = root.activeElement;
    if (event.shiftKey && active === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  });
}

export const LAUNCHER_CSS = `
.top { display: flex; align-items: center; gap: .5rem; }
.top .status { flex: 1; min-width: 0; overflow-wrap: anywhere; }
.top .retry { flex: none; white-space: nowrap; }
.launcher, .close { display: none; }
:host([mode="launcher"]) { position: fixed; right: 1rem; bottom: 1rem; z-index: 2147483000; border: 0; background: none; max-width: none; }
:host([mode="launcher"]) .launcher { display: inline-block; box-shadow: 0 4px 14px rgb(0 0 0 / .25); border-radius: 999px; padding: .7rem 1.1rem; }
:host([mode="launcher"]) .close { display: inline-block; padding: .1rem .6rem; font-size: 1.2em; line-height: 1; }
:host([mode="launcher"]:not([open])) .panel { display: none; }
:host([mode="launcher"][open]) .launcher { display: none; }
:host([mode="launcher"][open]) .panel {
  position: fixed; right: 1rem; bottom: 1rem; width: min(26rem, calc(100vw - 2rem)); height: min(38rem, calc(100dvh - 2rem)); max-height: none;
  background: var(--_bg); border: 1px solid var(--_border); border-radius: var(--_radius); box-shadow: 0 8px 30px rgb(0 0 0 / .25);
}
@media ${FULL_SCREEN} {
  :host([mode="launcher"][open]) .panel { inset: 0; width: 100vw; height: 100dvh; border: 0; border-radius: 0; box-shadow: none; }
}
`;
