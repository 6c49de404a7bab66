/**
 * Turns createThreadline's `llm` option into an Llm or nothing. A WebLLM
 * configuration is checked against WebGPU before anything downloads; when the
 * check fails, threadline runs with rules condensation and extractive answers
 * and says so through an `llm-status` progress event.
 */
import { isThreadlineError } from '../errors';
import type { ProgressListener } from '../progress';
import type { Llm } from './llm';
import { pickModels, type LlmModelOptions } from './models';
import { checkWebGpu, type WebGpuCapability } from './webgpu';
import { WebLlm, type EngineFactory } from './webllm';
import { loadModelTokenizer } from './llm-tokenizer';
import { webWorkerEngineFactory, type WebLlmEngineOptions } from './webllm-engine';

export interface WebLlmConfig extends LlmModelOptions, WebLlmEngineOptions {
  /** Engine factory (tests, custom engines). @default web-llm in its own worker */
  engine?: EngineFactory;
  /** Load the models right away (in the background) rather than on the first question. @default true */
  preload?: boolean;
}

export type LlmOption = Llm | WebLlmConfig | false | undefined;

export function isLlm(value: unknown): value is Llm {
  return typeof value === 'object' && value !== null && typeof (value as { stream?: unknown }).stream === 'function';
}

export interface ResolvedLlm {
  llm: Llm | undefined;
  capability: WebGpuCapability | undefined;
  /** Set when threadline created the engine (and so must dispose of it); a caller's own Llm is theirs. */
  dispose?: () => void;
}

export async function resolveLlm(option: LlmOption, onProgress?: ProgressListener): Promise<ResolvedLlm> {
  if (!option) return { llm: undefined, capability: undefined };
  if (isLlm(option)) return { llm: option, capability: undefined };
  let capability: WebGpuCapability;
  try {
    capability = await checkWebGpu();
  } catch (error) {
    const reason = isThreadlineError(error) ? error.message : String(error);
    onProgress?.({ phase: 'llm-status', status: 'unavailable', reason: `${reason} Using rules condensation and extractive answers.` });
    return { llm: undefined, capability: undefined };
  }
  const models = pickModels(option, capability.shaderF16);
  const llm = new WebLlm(option.engine ?? webWorkerEngineFactory(option), {
    answerModel: models.answer, condenserModel: models.condense, ...(onProgress ? { onProgress } : {}),
    tokenizer: (modelUrl) => loadModelTokenizer(modelUrl),
  });
  if (option.preload ?? true) void llm.load().catch(() => undefined); // failures are reported as llm-status events
  return { llm, capability, dispose: () => llm.dispose() };
}
