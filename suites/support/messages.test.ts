import { describe, expect, it } from 'vitest';
import { describeFound, firstFound, NAMED_IN_MESSAGE, someOf } from './messages.js';

describe('messages about many items', () => {
  it(`name the first ${NAMED_IN_MESSAGE} and count the rest`, () => {
    const items = Array.from({ length: 1_000_000 }, (_, i) => i);
    expect(someOf(items, String)).toBe('0, 1, 2, 3, 4, 5, 6, 7, 8, 9, … and 999990 more');
    expect(someOf([1, 2], String)).toBe('1, 2');
    const odd = firstFound(items, (n) => (n % 2 === 1 ? `#${n}` : undefined));
    expect(odd.count).toBe(500_000);
    expect(odd.some).toHaveLength(NAMED_IN_MESSAGE);
    expect(describeFound(odd, (s) => s)).toBe('#1, #3, #5, #7, #9, #11, #13, #15, #17, #19, … and 499990 more');
  });
});
