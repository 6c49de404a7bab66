/**
 * The capability check that runs before any model download: WebGPU present,
 * an adapter, and limits large enough for a small quantized model. Reports
 * the adapter's features (shader-f16 decides between f16 and f32 weights).
 */
import { ThreadlineError } from '../errors';

export interface WebGpuCapability {
  /** Adapter features, sorted (e.g. "shader-f16"). */
  features: string[];
  shaderF16: boolean;
  maxBufferSize: number;
  maxStorageBufferBindingSize: number;
  /** Adapter description, when the browser gives one. */
  adapter: string;
}

/** Smallest storage buffer binding a ~0.5B model's weights need (web-llm's own check uses the same order of size). */
export const MIN_STORAGE_BUFFER_BYTES = 128 * 1024 * 1024;

interface GpuLike {
  requestAdapter(options?: { powerPreference?: string }): Promise<AdapterLike | null>;
}
interface AdapterLike {
  features: Iterable<string>;
  limits: { maxBufferSize: number; maxStorageBufferBindingSize: number };
  info?: { vendor?: string; architecture?: string; description?: string };
}

/** Resolves with the capability, or rejects with WEBGPU_UNAVAILABLE saying why. */
export async function checkWebGpu(gpu: GpuLike | undefined = (globalThis as { navigator?: { gpu?: GpuLike } }).navigator?.gpu): Promise<WebGpuCapability> {
  if (!gpu) throw new ThreadlineError('WEBGPU_UNAVAILABLE', 'This browser has no WebGPU (navigator.gpu is missing).', { details: { reason: 'no-navigator-gpu' } });
  let adapter: AdapterLike | null;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch (error) {
    throw new ThreadlineError('WEBGPU_UNAVAILABLE', 'WebGPU refused to give an adapter.', { cause: error, details: { reason: 'adapter-error' } });
  }
  if (!adapter) throw new ThreadlineError('WEBGPU_UNAVAILABLE', 'WebGPU is present but no GPU adapter is available (blocklisted GPU or disabled).', { details: { reason: 'no-adapter' } });
  const features = [...adapter.features].sort();
  const capability: WebGpuCapability = {
    features, shaderF16: features.includes('shader-f16'),
    maxBufferSize: adapter.limits.maxBufferSize, maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
    adapter: [adapter.info?.vendor, adapter.info?.architecture, adapter.info?.description].filter(Boolean).join(' ') || 'unknown',
  };
  if (capability.maxStorageBufferBindingSize < MIN_STORAGE_BUFFER_BYTES) {
    throw new ThreadlineError('WEBGPU_UNAVAILABLE', `The GPU adapter's storage buffers are too small (${capability.maxStorageBufferBindingSize} bytes) for a language model.`, { details: { reason: 'limits', ...capability } });
  }
  return capability;
}
