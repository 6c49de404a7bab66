/**
 * The models the playground offers, with their sizes. Embedders: the offline
 * model (shipped with the library, served by this page) or two hub models (downloaded once from Hugging
 * Face, then cached by the browser). Language models: none (rules +
 * extractive answers) or web-llm builds; VRAM figures are web-llm's own
 * (prebuiltAppConfig's vram_required_MB), for the f16 builds and, in
 * brackets, the f32 builds used where the GPU lacks shader-f16.
 */
import { DEFAULT_MODELS, OFFLINE_MODEL_ID, type EmbedderOptions, type LlmOption } from '../../src/index';

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
