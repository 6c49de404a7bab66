/**
 * Model choices. The default pair suits laptops with integrated GPUs: a
 * 1.5B instruct model answers (≈1.6 GB VRAM in f16), a 0.5B one condenses
 * (≈0.95 GB), both loaded in one engine so condensation never disturbs the
 * answer model's KV cache. f16 weights need the adapter feature shader-f16;
 * otherwise the f32 builds are used. Any web-llm prebuilt id works too.
 */
export interface LlmModelOptions {
  /** web-llm model id for answers. @default Qwen2.5-1.5B-Instruct (q4f16_1, or q4f32_1 without shader-f16) */
  model?: string;
  /** A second model for condensation, or `false` to condense with the answer model. @default Qwen2.5-0.5B-Instruct */
  condenserModel?: string | false;
}

export const DEFAULT_MODELS = Object.freeze({
  f16: Object.freeze({ answer: 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC', condense: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC' }),
  f32: Object.freeze({ answer: 'Qwen2.5-1.5B-Instruct-q4f32_1-MLC', condense: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC' }),
});

export function pickModels(options: LlmModelOptions, shaderF16: boolean): { answer: string; condense: string | null } {
  const defaults = shaderF16 ? DEFAULT_MODELS.f16 : DEFAULT_MODELS.f32;
  const answer = options.model ?? defaults.answer;
  const condense = options.condenserModel === false ? null : (options.condenserModel ?? (options.model ? null : defaults.condense));
  return { answer, condense: condense === answer ? null : condense };
}
