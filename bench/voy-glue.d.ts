/** voy-search ships types for its entry only; its wasm-bindgen glue module has the same API plus the WASM setter. */
declare module 'voy-search/voy_search_bg.js' {
  export * from 'voy-search';
  export function __wbg_set_wasm(exports: WebAssembly.Exports): void;
}
