/**
 * Maps web-llm's init reports ({ progress, timeElapsed, text }) to threadline's
 * progress union. web-llm encodes the stage only in its text, e.g.
 * "Fetching param cache[12/56]: 450MB fetched. 30% completed, 12 secs elapsed.",
 * "Loading model from cache[3/56]: …", "Loading GPU shader modules[…]",
 * "Finish loading on WebGPU - …".
 */
import type { Progress } from '../progress';

export interface InitReport { progress: number; timeElapsed: number; text: string }

export function mapInitProgress(model: string, report: InitReport): Extract<Progress, { phase: 'llm-load' }> {
  const text = report.text ?? '';
  const stage = /finish loading/i.test(text) ? 'ready'
    : /shader|compil/i.test(text) ? 'compile'
      : /from cache|loading model from/i.test(text) ? 'cache'
        : 'download';
  const mb = /([\d.]+)\s*MB (?:fetched|loaded)/i.exec(text);
  const fraction = Math.min(1, Math.max(0, Number.isFinite(report.progress) ? report.progress : 0));
  return { phase: 'llm-load', model, stage, fraction: stage === 'ready' ? 1 : fraction, text, ...(mb ? { loadedMB: Number(mb[1]) } : {}) };
}
