/**
 * The models the playground offers, with their sizes. Embedders: the offline
 * model (shipped with the library, served by this page) or two hub models (downloaded once from Hugging
 * Face, then cached by the browser). Language models: none (rules +
 * extractive answers) or web-llm builds; VRAM figures are web-llm's own
 * (prebuiltAppConfig's vram_required_MB), for the f16 builds and, in
 * brackets, the f32 builds used where the GPU lacks shader-f16.
 */
import { checkWebGpu, DEFAULT_MODELS, OFFLINE_MODEL_ID, type EmbedderOptions, type LlmOption } from '../../src/index';
import { errorText, h } from './dom';

export interface EmbedderChoice { key: string; label: string; options: EmbedderOptions }
export interface LlmChoice { key: string; label: string; needsGpu: boolean; option: (shaderF16: boolean) => LlmOption }

export function embedderChoices(): EmbedderChoice[] {
  const offline = { offlineModel: OFFLINE_MODEL_ID, fallback: false as const };
  return [
    { key: 'offline', label: 'Offline model: threadline-glove-30k, 3.6 MB, 100 dims, served by this page', options: { model: OFFLINE_MODEL_ID, ...offline } },
    { key: 'minilm', label: 'all-MiniLM-L6-v2 (q8): 23 MB download, 384 dims', options: { model: 'Xenova/all-MiniLM-L6-v2', dtype: 'q8', ...offline } },
    { key: 'bge-small', label: 'bge-small-en-v1.5 (q8): 34 MB download, 384 dims', options: { model: 'Xenova/bge-small-en-v1.5', dtype: 'q8', ...offline } },
  ];
}

export const LLM_CHOICES: readonly LlmChoice[] = [
  { key: 'none', label: 'None: rules condensation + extractive answers (no download)', needsGpu: false, option: () => undefined },
  { key: 'pair', label: 'Qwen2.5 1.5B answers + 0.5B condenses: 2.6 GB VRAM (f32: 2.9 GB)', needsGpu: true, option: () => ({}) },
  { key: 'qwen-1.5b', label: 'Qwen2.5 1.5B for both: 1.6 GB VRAM (f32: 1.9 GB)', needsGpu: true, option: () => ({ condenserModel: false }) },
  { key: 'qwen-0.5b', label: 'Qwen2.5 0.5B for both: 0.9 GB VRAM (f32: 1.1 GB)', needsGpu: true, option: (f16) => ({ model: f16 ? DEFAULT_MODELS.f16.condense : DEFAULT_MODELS.f32.condense, condenserModel: false }) },
];

/** Fills the two selects, the saved choices selected (an injected model always is). */
export function fillChoices(ui: { embedder: HTMLSelectElement; llm: HTMLSelectElement }, embedders: readonly EmbedderChoice[], llms: readonly LlmChoice[], injected: boolean): void {
  const saved = { embedder: localStorage.getItem('playground.embedder'), llm: localStorage.getItem('playground.llm') };
  ui.embedder.replaceChildren(...embedders.map((c) => h('option', { value: c.key, selected: c.key === saved.embedder }, c.label)));
  ui.llm.replaceChildren(...llms.map((c) => h('option', { value: c.key, selected: injected ? c.key === 'injected' : c.key === saved.llm }, c.label)));
}

/** Says what WebGPU offers; without it, disables the models that need it. Resolves to shader-f16 support. */
export async function checkGpu(ui: { gpu: HTMLElement; llm: HTMLSelectElement }, llms: readonly LlmChoice[]): Promise<boolean> {
  try {
    const gpu = await checkWebGpu();
    ui.gpu.textContent = `WebGPU: ${gpu.adapter || 'adapter found'}${gpu.shaderF16 ? ', shader-f16' : ', no shader-f16 (f32 builds)'}.`;
    return gpu.shaderF16;
  } catch (error) {
    ui.gpu.textContent = `WebGPU unavailable: ${errorText(error)} WebLLM models are disabled; without a language model, answers are extractive.`;
    for (const option of ui.llm.options) {
      if (llms.find((c) => c.key === option.value)?.needsGpu) option.disabled = true;
    }
    if (ui.llm.selectedOptions[0]?.disabled) ui.llm.value = 'none';
    return false;
  }
}
