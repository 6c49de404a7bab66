/// <reference lib="webworker" />
/**
 * The production retrieval service plus one test-only method, `chunkKeys`
 * (the in-memory chunk keys), so fault tests can compare memory with storage.
 * Production workers refuse that method: only RETRIEVER_METHODS are served there.
 */
import * as Comlink from 'comlink';
import { ortWasmPaths } from '../../src/embedding/ort-assets';
import { RETRIEVER_METHODS } from '../../src/retriever';
import { serveRetrieval } from '../../src/worker/serve-retrieval';

Comlink.expose(serveRetrieval({ wasmPaths: ortWasmPaths(new URL('ort/', self.location.href)), baseUrl: self.location.href }, { ...RETRIEVER_METHODS, chunkKeys: 0 }));
