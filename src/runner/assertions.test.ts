import { describe, expect, it } from 'vitest';
import { createAssertions, observationOf, SECTION_APART, SECTION_IN_MESSAGE, type Finding } from './assertions.js';
import type { Observation } from './results.js';

function recorder(wording = SECTION_APART) {
  const seen: Array<{ observation: Omit<Observation, 'exchange'>; evidence: string | undefined }> = [];
  let asserted = 0;
  const t = createAssertions<Finding, string>({
    wording,
    specOf: () => 'Events: "the sentence"',
    observe: (observation, evidence) => seen.push({ observation, evidence }),
    onAssert: () => (asserted += 1),
  });
  return { t, seen, asserted: () => asserted };
}

describe('the shared assertions', () => {
  it('that/fail/warn count as assertions, held or not; only what does not hold is recorded, with its evidence', () => {
    const { t, seen, asserted } = recorder();
    expect(t.that(true, { message: 'held' }, 'a')).toBe(true);
    expect(t.warn(true, { message: 'held', reading: 'r', otherReading: 'o' })).toBe(true);
    expect(t.that(false, { message: 'refused', expected: 'HTTP 401', received: { status: 200 } }, 'b')).toBe(false);
    expect(t.fail({ message: 'no answer' })).toBe(false);
    expect(asserted()).toBe(4);
    expect(seen).toEqual([
      {
        observation: {
          message: 'refused',
          spec: 'Events: "the sentence"',
          expected: 'HTTP 401',
          received: '{"status":200}',
        },
        evidence: 'b',
      },
      { observation: { message: 'no answer', spec: 'Events: "the sentence"' }, evidence: undefined },
    ]);
  });

  it('a warning carries severity and its two readings, worded by the command: partner and receiver keep the section apart', () => {
    const { t, seen } = recorder();
    t.warn(false, {
      message: 'refused with 400, not 401',
      reading: 'refused',
      otherReading: 'exactly 401',
      after: '; more',
    });
    expect(seen[0]!.observation).toEqual({
      severity: 'warning',
      message: 'refused with 400, not 401 (reading taken: refused; the other reading: exactly 401); more',
      spec: 'Events: "the sentence"',
    });
  });

  it('run words the same warning with the section at the end of the message', () => {
    const { t, seen } = recorder(SECTION_IN_MESSAGE);
    t.warn(false, { message: 'odd', reading: 'r', otherReading: 'o' });
    t.fail({ message: 'wrong' });
    expect(seen.map((s) => s.observation.message)).toEqual([
      'odd (read as: r; the other reading: o) (Events: "the sentence")',
      'wrong (Events: "the sentence")',
    ]);
    expect(
      observationOf(SECTION_IN_MESSAGE, { message: 'bad', pointer: '/id' }, 'Runs', { note: 'run schema' }),
    ).toEqual({
      message: 'bad (run schema; Runs)',
      spec: 'Runs',
      pointer: '/id',
    });
  });
});
