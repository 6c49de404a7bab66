/**
 * The element's shadow DOM: status row (with a retry button and a launcher's close button), progress
 * bar, log, starter questions and the question form, with their ::part names.
 * Built once per element; threadline-chat.ts wires the behaviour.
 */
import { createLauncher } from './launcher';
import { ELEMENT_CSS } from './style';

export type ChatDom = ReturnType<typeof buildChatDom>;

export function buildChatDom(root: ShadowRoot) {
  if ('adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(ELEMENT_CSS);
    root.adoptedStyleSheets = [sheet];
  } else {
    const style = document.createElement('style');
    style.textContent = ELEMENT_CSS;
    root.append(style);
  }
  const panel = document.createElement('div');
  panel.className = 'panel';
  panel.setAttribute('part', 'panel');
  const status = Object.assign(document.createElement('p'), { className: 'status' });
  status.setAttribute('role', 'status');
  status.setAttribute('part', 'status');
  const launcher = createLauncher();
  // Shown where the element could not start for a reason a second try can mend (the network, storage, a crashed worker).
  const retry = Object.assign(document.createElement('button'), { type: 'button', className: 'secondary retry', textContent: 'Try again', hidden: true });
  retry.setAttribute('part', 'retry-button');
  const top = Object.assign(document.createElement('div'), { className: 'top' });
  top.append(status, retry, launcher.close);
  const progress = document.createElement('progress');
  progress.hidden = true;
  const log = Object.assign(document.createElement('ol'), { className: 'log' });
  // A list of turns that announces what is added. Not role="log": that role replaces the list's, and a screen reader
  // then reads each turn as an item of no list (axe: listitem, aria-allowed-role). aria-live is allowed on a list.
  log.setAttribute('aria-live', 'polite');
  log.setAttribute('aria-label', 'Conversation');
  log.setAttribute('part', 'log');
  const form = document.createElement('form');
  form.setAttribute('part', 'form');
  const inputId = 'threadline-question';
  const label = Object.assign(document.createElement('label'), { className: 'sr-only', htmlFor: inputId, textContent: 'Ask a question about these documents' });
  const input = Object.assign(document.createElement('input'), { id: inputId, type: 'text', autocomplete: 'off', disabled: true, maxLength: 2000 });
  const ask = Object.assign(document.createElement('button'), { type: 'submit', className: 'primary', textContent: 'Ask', disabled: true });
  const stop = Object.assign(document.createElement('button'), { type: 'button', className: 'secondary', textContent: 'Stop', hidden: true });
  const fresh = Object.assign(document.createElement('button'), { type: 'button', className: 'secondary', textContent: 'New', title: 'Start a new conversation', disabled: true });
  input.setAttribute('part', 'input');
  ask.setAttribute('part', 'ask-button');
  stop.setAttribute('part', 'stop-button');
  fresh.setAttribute('part', 'new-button');
  const suggestions = Object.assign(document.createElement('div'), { className: 'suggestions', hidden: true });
  suggestions.setAttribute('part', 'suggestions');
  form.append(label, input, ask, stop, fresh);
  panel.append(top, progress, log, suggestions, form);
  root.append(launcher.button, panel);
  return { status, retry, progress, log, form, input, ask, stop, fresh, suggestions, panel, launcher: launcher.button, close: launcher.close };
}
