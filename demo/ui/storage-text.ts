import { formatBytes } from './dom';

/**
 * Your data (IndexedDB: documents, vectors, conversations) apart from the app and models
 * (the service worker's cache, web-llm's caches), where the browser says (Chromium's usageDetails).
 */
export function storageText(estimate: (StorageEstimate & { usageDetails?: Record<string, number> }) | null): string {
  if (estimate?.usage === undefined) return 'unknown';
  const details = estimate.usageDetails;
  if (!details) return `${formatBytes(estimate.usage)} used${estimate.quota ? ` of ${formatBytes(estimate.quota)}` : ''}`;
  const yours = details.indexedDB ?? 0;
  return `your data ${formatBytes(yours)} · app and models ${formatBytes(Math.max(0, estimate.usage - yours))}${estimate.quota ? ` · ${formatBytes(estimate.quota)} available to this site` : ''}`;
}
