/** Starter questions as buttons (the element's `suggestions` attribute: questions separated by "|", at most six). */
export function renderSuggestions(box: HTMLElement, attribute: string | null, pick: (question: string) => void): void {
  const questions = (attribute ?? '').split('|').map((q) => q.trim()).filter(Boolean).slice(0, 6);
  box.hidden = questions.length === 0;
  box.replaceChildren(...questions.map((q) => {
    const button = Object.assign(document.createElement('button'), { type: 'button', className: 'secondary suggestion', textContent: q });
    button.setAttribute('part', 'suggestion');
    button.addEventListener('click', () => pick(q));
    return button;
  }));
}
