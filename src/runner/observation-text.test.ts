import { describe, expect, it } from 'vitest';
import { OBSERVATION_TEXT_CHARS } from './limits.js';
import { boundedObservation, boundedText } from './observation-text.js';

describe('observation texts', () => {
  it(`are cut at ${OBSERVATION_TEXT_CHARS} characters, saying how long they were`, () => {
    const long = 'a'.repeat(3_000_000);
    expect(boundedText(long)).toBe(`${'a'.repeat(OBSERVATION_TEXT_CHARS)}… (cut: 3000000 characters in all)`);
    expect(boundedText('short')).toBe('short');
  });

  it('never split a surrogate pair', () => {
    const text = `${'a'.repeat(OBSERVATION_TEXT_CHARS - 1)}😀${'b'.repeat(10)}`;
    expect(boundedText(text).startsWith(`${'a'.repeat(OBSERVATION_TEXT_CHARS - 1)}…`)).toBe(true);
  });

  it('bound the message, expected and received of an observation, and leave a short one as it is', () => {
    const big = 'x'.repeat(OBSERVATION_TEXT_CHARS * 3);
    const cut = boundedObservation({ message: big, spec: 'Errors', expected: big, received: big, pointer: '/a' });
    for (const text of [cut.message, cut.expected!, cut.received!])
      expect(text.length).toBeLessThan(OBSERVATION_TEXT_CHARS + 40);
    expect(cut.pointer).toBe('/a');
    const small = { message: 'm', spec: 'Errors' as const };
    expect(boundedObservation(small)).toBe(small);
  });
});
