/** The playground's own elements (index.html), found once; a missing one fails loudly at start. */
import { $ } from './dom';

export const ui = {
  status: $<HTMLParagraphElement>('#status'),
  drop: $<HTMLLabelElement>('#drop'),
  files: $<HTMLInputElement>('#files'),
  sample: $<HTMLButtonElement>('#sample'),
  indexInfo: $<HTMLParagraphElement>('#index-info'),
  docList: $<HTMLUListElement>('#doc-list'),
  storage: $<HTMLSpanElement>('#storage'),
  clearAll: $<HTMLButtonElement>('#clear-all'),
  embedder: $<HTMLSelectElement>('#embedder'),
  llm: $<HTMLSelectElement>('#llm'),
  gpu: $<HTMLParagraphElement>('#gpu'),
  newSession: $<HTMLButtonElement>('#new-session'),
  exportMarkdown: $<HTMLButtonElement>('#export-md'),
  exportJson: $<HTMLButtonElement>('#export-json'),
  sessionList: $<HTMLUListElement>('#session-list'),
  compare: $<HTMLInputElement>('#compare'),
  details: $<HTMLInputElement>('#details'),
  main: $<HTMLElement>('main'),
  starters: $<HTMLDivElement>('#starters'),
  chat: $<HTMLOListElement>('#chat'),
  form: $<HTMLFormElement>('#ask'),
  question: $<HTMLInputElement>('#question'),
  askButton: $<HTMLButtonElement>('#ask-button'),
  stop: $<HTMLButtonElement>('#stop'),
};
