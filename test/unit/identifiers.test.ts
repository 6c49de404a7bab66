import { describe, expect, it } from 'vitest';
import { namesInAnswer, namesInProse } from '../../src/chat/identifiers';

describe('names as code writes them', () => {
  it('in prose: camelCase, snake_case and functions named with "()"; not everyday words or a word in parentheses', () => {
    expect(namesInProse('what does CORRUPT_INDEX mean, and onModelMismatch? call start() (later) or q.clear()')).toEqual(['CORRUPT_INDEX', 'onModelMismatch', 'start', 'clear']);
    expect(namesInProse('How do I stop the queue (start) here? OK, iPhone-free.')).toEqual(['iPhone']);
  });

  it('in an answer: also functions called with arguments, first mention first, each once; not a plural in parentheses', () => {
    expect(namesInAnswer("semver.coerce('v2') gives 2.0.0; set throwOnTimeout, then coerce(x) again with throwOnTimeout.")).toEqual(['coerce', 'throwOnTimeout']);
    expect(namesInAnswer('Return the item(s) or the box(es) within 30 days.')).toEqual([]);
    expect(namesInAnswer('')).toEqual([]);
  });

  it('reads a long hostile answer in linear time', () => {
    const started = performance.now();
    namesInAnswer(`${'a'.repeat(50_000)}(${'_b'.repeat(20_000)} ${'xY('.repeat(10_000)}`);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
