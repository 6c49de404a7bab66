import { describe, expect, it } from 'vitest';
import { hoistTransitiveImports, transitiveImports } from '../../scripts/vite-hoist-imports';

type FakeChunk = { type: 'chunk'; fileName: string; name: string; isEntry: boolean; imports: string[]; dynamicImports: string[]; code: string };
const chunk = (fileName: string, imports: string[], isEntry = false, dynamicImports: string[] = []): FakeChunk => ({ type: 'chunk', fileName, name: fileName.replace(/\.js$/, ''), isEntry, imports, dynamicImports, code: `// ${fileName}\n` });

describe('hoistTransitiveImports (build plugin)', () => {
  it('makes an entry import every chunk it reaches, so a browser fetches them at once; the rest is untouched', () => {
    // entry → element → (errors, library → (validate, errors)); a cycle back to the element is harmless.
    const bundle: Record<string, FakeChunk | { type: 'asset'; fileName: string }> = {
      'entry.js': chunk('entry.js', ['element.js'], true),
      'element.js': chunk('element.js', ['errors.js', 'library.js']),
      'library.js': chunk('library.js', ['validate.js', 'errors.js', 'element.js']),
      'errors.js': chunk('errors.js', []),
      'validate.js': chunk('validate.js', []),
      'model/config.json': { type: 'asset', fileName: 'model/config.json' },
    };
    expect(transitiveImports(bundle, 'entry.js')).toEqual(['element.js', 'errors.js', 'library.js', 'validate.js']);
    const plugin = hoistTransitiveImports() as unknown as { generateBundle: (options: unknown, bundle: unknown) => void };
    plugin.generateBundle({}, bundle);
    expect((bundle['entry.js'] as FakeChunk).code).toBe('import "./errors.js";\nimport "./library.js";\nimport "./validate.js";\n// entry.js\n');
    expect((bundle['element.js'] as FakeChunk).code).toBe('// element.js\n'); // not an entry
  });

  it('leaves an entry alone when a chunk it reaches is in another folder', () => {
    const bundle = { 'entry.js': chunk('entry.js', ['a.js'], true), 'a.js': chunk('a.js', ['sub/b.js']), 'sub/b.js': chunk('sub/b.js', []) };
    (hoistTransitiveImports() as unknown as { generateBundle: (options: unknown, bundle: unknown) => void }).generateBundle({}, bundle);
    expect(bundle['entry.js'].code).toBe('// entry.js\n');
  });

  it('an entry named in preloadDynamic starts fetching its dynamic import and everything that reaches, in parallel; other entries stay lazy', () => {
    const bundle = {
      'standalone.js': chunk('standalone.js', [], true, ['element.js']),
      'library.js': chunk('library.js', [], true, ['webllm.js']),
      'element.js': chunk('element.js', ['errors.js', 'core.js']),
      'core.js': chunk('core.js', ['errors.js']),
      'errors.js': chunk('errors.js', []),
      'webllm.js': chunk('webllm.js', []),
    };
    (hoistTransitiveImports({ preloadDynamic: ['standalone'] }) as unknown as { generateBundle: (options: unknown, bundle: unknown) => void }).generateBundle({}, bundle);
    expect(bundle['standalone.js'].code).toBe('import("./element.js").catch(() => {});\nimport("./errors.js").catch(() => {});\nimport("./core.js").catch(() => {});\n// standalone.js\n');
    expect(bundle['library.js'].code).toBe('// library.js\n');
  });
});
