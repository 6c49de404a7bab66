/** A labelled progress bar; `fraction` null means "busy, amount unknown". */
import { h } from './dom';

export class ProgressBar {
  readonly element: HTMLDivElement;
  private readonly bar: HTMLProgressElement;
  private readonly text: HTMLSpanElement;

  constructor(readonly name: string) {
    this.bar = h('progress', { max: 1 });
    this.text = h('span', { className: 'progress-text' });
    this.element = h('div', { className: 'progress', hidden: true, dataset: { name } }, h('span', { className: 'progress-label' }, name), this.bar, this.text);
  }

  set(fraction: number | null, text: string): void {
    this.element.hidden = false;
    this.element.dataset.state = 'running';
    if (fraction === null) this.bar.removeAttribute('value');
    else this.bar.value = Math.max(0, Math.min(1, fraction));
    this.text.textContent = text;
  }

  done(text: string): void {
    this.set(1, text);
    this.element.dataset.state = 'done';
  }

  fail(text: string): void {
    this.element.hidden = false;
    this.element.dataset.state = 'failed';
    this.text.textContent = text;
  }
}
