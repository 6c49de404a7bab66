/**
 * Token counting with the loaded language model's own tokenizer, for the
 * memory budget. web-llm does not expose its tokenizer, but it downloads the
 * model's tokenizer.json into its Cache Storage ("webllm/model") under the
 * model URL's resolve/main/ folder; this reads that copy (or, failing that,
 * fetches it from the same host web-llm used) and builds a Hugging Face
 * tokenizer from it.
 */

export type CountTokens = (text: string) => number;
export type Fetcher = (url: string) => Promise<Response>;

/** web-llm's own rule for where a model's files live. */
export function modelFileUrl(modelUrl: string, file: string): string {
  let base = modelUrl.endsWith('/') ? modelUrl : `${modelUrl}/`;
  if (!/.+\/resolve\/.+\//.test(base)) base += 'resolve/main/';
  return new URL(file, base).href;
}

async function fromCacheOrNetwork(url: string, fetcher: Fetcher): Promise<unknown> {
  const storage = (globalThis as { caches?: CacheStorage }).caches;
  const cached = storage ? await (await storage.open('webllm/model')).match(url).catch(() => undefined) : undefined;
  const response = cached ?? (await fetcher(url));
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

export async function loadModelTokenizer(modelUrl: string, fetcher: Fetcher = (u) => fetch(u)): Promise<CountTokens> {
  const [json, config] = await Promise.all([
    fromCacheOrNetwork(modelFileUrl(modelUrl, 'tokenizer.json'), fetcher),
    fromCacheOrNetwork(modelFileUrl(modelUrl, 'tokenizer_config.json'), fetcher).catch(() => ({})),
  ]);
  // Imported here, not at the top: only pages that load a language model need it.
  const { Tokenizer } = await import('@huggingface/tokenizers');
  const tokenizer = new Tokenizer(json as object, config as object);
  return (text) => tokenizer.encode(text).ids.length;
}
