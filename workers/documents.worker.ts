/// <reference lib="webworker" />
/**
 * Documents worker entry: reads PDF and Word files for the retrieval worker,
 * which starts it on the first such file (src/worker/documents-client.ts).
 * Thin on purpose; all logic lives in src/.
 */
import * as Comlink from 'comlink';
import { serveDocuments } from '../src/worker/serve-documents';

Comlink.expose(serveDocuments());
