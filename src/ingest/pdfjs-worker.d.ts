/** pdf.js ships no types for its worker module; threadline only hands it back to pdf.js (binary-parsers.ts). */
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
