/**
 * Library builds: leave every worker and asset reference in the shape an app's
 * bundler recognises, `new URL('./file', import.meta.url)`. Vite writes them as
 * `new URL(/* @vite-ignore *\/ new URL('file', import.meta.url).href, '' + import.meta.url)`
 * or `new URL('./file', '' + import.meta.url)`, shapes chosen precisely so that
 * no tool processes them again: right for an app, wrong for a library, whose
 * workers and model files the app's bundler must copy (and whose workers it must
 * bundle) too.
 */
import type { Plugin } from 'vite';

const Q = '["\'`]';
const NESTED = new RegExp(String.raw`new URL\(\s*(?:/\*\s*@vite-ignore\s*\*/\s*)?new URL\(\s*(${Q})([^"'\`$]+)\1\s*,\s*import\.meta\.url\s*\)\.href\s*,\s*${Q}${Q}\s*\+\s*import\.meta\.url\s*\)`, 'g');
const PREFIXED = new RegExp(String.raw`new URL\(\s*(${Q})(\.{1,2}/[^"'\`$]+)\1\s*,\s*${Q}${Q}\s*\+\s*import\.meta\.url\s*\)`, 'g');

/**
 * A bare name (`new URL('ort.webgpu.min.mjs', import.meta.url)`, onnxruntime-web's
 * Node-only lookup of its own file, which threadline does not ship): webpack reads
 * it as a package request, Parcel and Turbopack (Next.js 16) as a file to bundle,
 * and each fails the app's build on it. Its name is written as an expression
 * (`['ort', 'webgpu', 'min', 'mjs'].join('.')`), the same URL at run time and no
 * literal for any bundler to follow: magic comments only spoke to Vite and webpack,
 * and Turbopack also evaluated `'' + import.meta.url`.
 */
const BARE = new RegExp(String.raw`new URL\(\s*(${Q})([\w@][^"'\`$/]*)\1\s*,\s*import\.meta\.url\s*\)`, 'g');

export function plainUrls(code: string): string {
  return code
    .replace(NESTED, (_, _q: string, file: string) => `new URL(${JSON.stringify(file.startsWith('.') ? file : `./${file}`)}, import.meta.url)`)
    .replace(PREFIXED, (_, _q: string, file: string) => `new URL(${JSON.stringify(file)}, import.meta.url)`)
    .replace(BARE, (_, _q: string, file: string) => `new URL([${file.split('.').map((part) => JSON.stringify(part)).join(', ')}].join("."), import.meta.url)`);
}

export function plainUrlsPlugin(): Plugin {
  return {
    name: 'threadline-plain-urls',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) if (chunk.type === 'chunk') chunk.code = plainUrls(chunk.code);
    },
  };
}
