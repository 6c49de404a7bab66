import { isThreadlineError } from '../../src/index';

/** A threadline error's message and code; any other error's message. */
export const errorText = (error: unknown): string => (isThreadlineError(error) ? `${error.message} (${error.code})` : error instanceof Error ? error.message : String(error));

/** A tiny element builder: children are nodes or strings, and strings always become text nodes. */
type Props<K extends keyof HTMLElementTagNameMap> = Partial<Omit<HTMLElementTagNameMap[K], 'dataset' | 'style'>> & { dataset?: Record<string, string>; attrs?: Record<string, string> };

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props<K> = {}, ...children: (Node | string | null | undefined)[]): HTMLElementTagNameMap[K] {
  const { dataset, attrs, ...rest } = props;
  const node = Object.assign(document.createElement(tag), rest);
  if (dataset) Object.assign(node.dataset, dataset);
  if (attrs) for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

export const $ = <T extends Element>(selector: string): T => {
  const found = document.querySelector<T>(selector);
  if (!found) throw new Error(`playground markup lacks ${selector}`);
  return found;
};

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} kB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

/** Saves `text` as a file through the browser's download (an object URL, released after a while). */
export function download(text: string, fileName: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  h('a', { href: url, attrs: { download: fileName } }).click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
