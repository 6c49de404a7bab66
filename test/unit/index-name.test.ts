import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_NAME, indexSource, nameForIndex, rememberName, rememberedName } from '../../src/element/index-name';
import { sourceKey } from '../../src/prebuilt/source-key';

const PAGE = 'https://user.github.io/project-b/guide/index.html';

afterEach(() => { delete (globalThis as { localStorage?: unknown }).localStorage; });

function fakeStorage(): Storage {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => { map.set(k, v); } } as unknown as Storage;
}

describe("the element's default IndexedDB name (index-name.ts)", () => {
  it("is one per index file path: a page's relative index and another page's absolute one name the same file alike; query and fragment aside", () => {
    expect(nameForIndex('../site.tlix', PAGE)).toBe(`${DEFAULT_NAME} /project-b/site.tlix`);
    expect(nameForIndex('/project-b/site.tlix?v=3#x', 'https://user.github.io/project-b/')).toBe(nameForIndex('../site.tlix', PAGE));
    expect(nameForIndex('/project-a/site.tlix', PAGE)).not.toBe(nameForIndex('../site.tlix', PAGE));
    expect(sourceKey('https://user.github.io/project-b/site.tlix?v=3#x')).toBe('https://user.github.io/project-b/site.tlix');
    expect(indexSource('../site.tlix?v=3', PAGE)).toBe('https://user.github.io/project-b/site.tlix');
  });

  it('stays within createThreadline\'s 200 characters, and long paths that share their start still differ', () => {
    const long = `/${'docs/'.repeat(60)}`;
    const one = nameForIndex(`${long}one.tlix`, PAGE);
    const two = nameForIndex(`${long}two.tlix`, PAGE);
    expect(one.length).toBeLessThanOrEqual(200);
    expect(two.length).toBeLessThanOrEqual(200);
    expect(one).not.toBe(two);
  });

  it('is remembered per file where the page may use localStorage, and a value not written by it is ignored', () => {
    expect(rememberedName('../site.tlix', PAGE)).toBeNull(); // no localStorage at all (Node)
    const storage = fakeStorage();
    (globalThis as { localStorage?: Storage }).localStorage = storage;
    expect(rememberedName('../site.tlix', PAGE)).toBeNull();
    rememberName('../site.tlix', PAGE);
    expect(rememberedName('/project-b/site.tlix', PAGE)).toBe(`${DEFAULT_NAME} /project-b/site.tlix`);
    expect(rememberedName('/project-a/site.tlix', PAGE)).toBeNull();
    storage.setItem('threadline-chat:name /project-a/site.tlix', 'someone-elses-database');
    expect(rememberedName('/project-a/site.tlix', PAGE)).toBeNull();
  });

  it('a page that may not use storage (a sandboxed frame throws on access) loses only the shortcut', () => {
    Object.defineProperty(globalThis, 'localStorage', { configurable: true, get: () => { throw new DOMException('denied', 'SecurityError'); } });
    expect(() => rememberName('../site.tlix', PAGE)).not.toThrow();
    expect(rememberedName('../site.tlix', PAGE)).toBeNull();
  });
});
