/**
 * A static model in one file: model.safetensors carries config.json,
 * tokenizer.json (without its vocabulary, which vocab-table.ts's tensors hold)
 * and tokenizer_config.json as header metadata. The built-in offline model is
 * written so (scripts/build-offline-model.ts) and its folder keeps the three
 * JSON files too, so it is still a Model2Vec folder to any other reader.
 * Loading it in a page is then one request and no JSON of any size to parse.
 */
export const EMBEDDED_KEYS = { config: 'threadline.config', tokenizer: 'threadline.tokenizer', tokenizerConfig: 'threadline.tokenizer_config' } as const;

export interface EmbeddedFiles {
  config: unknown;
  tokenizer: unknown;
  tokenizerConfig?: unknown;
}

/** The metadata to write: `tokenizer` is tokenizer.json's object, written without `model.vocab`. */
export function embeddedMetadata(config: unknown, tokenizer: { model?: object }, tokenizerConfig?: unknown): Record<string, string> {
  const model: Record<string, unknown> = { ...tokenizer.model };
  delete model.vocab;
  return {
    [EMBEDDED_KEYS.config]: JSON.stringify(config),
    [EMBEDDED_KEYS.tokenizer]: JSON.stringify({ ...tokenizer, model }),
    ...(tokenizerConfig === undefined ? {} : { [EMBEDDED_KEYS.tokenizerConfig]: JSON.stringify(tokenizerConfig) }),
  };
}

/** Whether a header's metadata carries the files (config.json and tokenizer.json at least), without reading them. */
export function carriesFiles(metadata: Readonly<Record<string, string>>): boolean {
  return metadata[EMBEDDED_KEYS.config] !== undefined && metadata[EMBEDDED_KEYS.tokenizer] !== undefined;
}

/** The files a header's metadata carries, or null when it carries none; JSON that does not parse throws, naming the key. */
export function embeddedFiles(metadata: Readonly<Record<string, string>>): EmbeddedFiles | null {
  if (!carriesFiles(metadata)) return null;
  const config = metadata[EMBEDDED_KEYS.config] as string;
  const tokenizer = metadata[EMBEDDED_KEYS.tokenizer] as string;
  const parse = (key: string, text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      throw new Error(`its metadata "${key}" is not JSON`);
    }
  };
  const tokenizerConfig = metadata[EMBEDDED_KEYS.tokenizerConfig];
  return {
    config: parse(EMBEDDED_KEYS.config, config),
    tokenizer: parse(EMBEDDED_KEYS.tokenizer, tokenizer),
    ...(tokenizerConfig === undefined ? {} : { tokenizerConfig: parse(EMBEDDED_KEYS.tokenizerConfig, tokenizerConfig) }),
  };
}
