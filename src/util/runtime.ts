/** True in Node (the CLI, build scripts, tests), where files are read from disk and transformers.js runs on onnxruntime-node. */
export function isNode(): boolean {
  return typeof process !== 'undefined' && typeof process.versions?.node === 'string';
}
