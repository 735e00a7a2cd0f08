import { describe, expect, it } from 'vitest';
import { SITUATION_NEVER_AROSE } from './evidence.js';
import { ASSERTED_NOTHING, decideOutcome, type CheckEndingInput } from './outcome.js';
import type { Observation } from './results.js';

const done = { kind: 'done' } as const;
const failure: Observation = { message: 'the ref names no requirement', spec: 'Resources and their fields › Notice' };
const warning: Observation = { ...failure, severity: 'warning', message: 'read two ways' };
const provoked = { evidence: 'provoked' } as const;
const input = { evidence: 'input' } as const;
const conditional = { evidence: 'conditional', notApplicableWhen: 'no notice carried a ref' } as const;

const decide = (over: Partial<CheckEndingInput> & Pick<CheckEndingInput, 'declaration'>) =>
  decideOutcome({ ending: done, asserted: 0, observations: [], ...over });

describe('decideOutcome: what a check that judged nothing means follows from how its evidence arises', () => {
  it('provoked, nothing asserted and no reason given: an engine error ("asserted nothing")', () => {
    const o = decide({ declaration: provoked });
    expect(o).toMatchObject({ status: 'error', message: ASSERTED_NOTHING, error: { name: 'AssertedNothing' } });
  });

  it('input, given its input and asserting nothing: an engine error too', () => {
    expect(decide({ declaration: input }).status).toBe('error');
  });

  it('input, its input missing: needs-input naming the unlock, as today', () => {
    const skip = { kind: 'needs-input', reason: 'needs an expired code', unlock: '--expired-code' } as const;
    expect(decide({ declaration: input, skip })).toEqual({ status: 'skipped', message: skip.reason, skip });
  });

  it('conditional, its situation never arose: not-applicable with the declared reason, never an error', () => {
    const o = decide({ declaration: conditional });
    expect(o).toEqual({
      status: 'skipped',
      message: 'no notice carried a ref',
      skip: { kind: 'not-applicable', reason: 'no notice carried a ref' },
    });
  });

  it('conditional with no declared reason still applies nothing, saying so (the catalogue test refuses the declaration)', () => {
    expect(decide({ declaration: { evidence: 'conditional' } }).skip).toEqual({
      kind: 'not-applicable',
      reason: SITUATION_NEVER_AROSE,
    });
  });

  it("conditional, the check's own inconclusive or not-exercised skip: not-applicable with the check's reason", () => {
    for (const kind of ['inconclusive', 'not-exercised'] as const) {
      const o = decide({ declaration: conditional, skip: { kind, reason: 'both probes answered 200' } });
      expect(o, kind).toEqual({
        status: 'skipped',
        message: 'both probes answered 200',
        skip: { kind: 'not-applicable', reason: 'both probes answered 200' },
      });
    }
  });

  it('conditional keeps a skip for an input, a selection or a signal as it is', () => {
    for (const kind of ['needs-input', 'deselected', 'interrupted'] as const) {
      const skip = { kind, reason: 'r' };
      expect(decide({ declaration: conditional, skip }).skip, kind).toEqual(skip);
    }
  });

  it('provoked keeps its inconclusive skip (every arrangement tried): the verdict is incomplete', () => {
    const skip = {
      kind: 'inconclusive',
      reason: 'tried cert-notices-all and two real runs: no candidate in common',
    } as const;
    expect(decide({ declaration: provoked, skip })).toEqual({ status: 'skipped', message: skip.reason, skip });
  });

  it('whatever the declaration, a judged check passes, fails or warns on what it saw', () => {
    for (const declaration of [provoked, input, conditional]) {
      expect(decide({ declaration, asserted: 1 }).status, declaration.evidence).toBe('passed');
      expect(decide({ declaration, asserted: 1, observations: [failure] }).status).toBe('failed');
      expect(decide({ declaration, asserted: 1, observations: [warning] }).status).toBe('warning');
      // A failure wins over a skip, even the not-applicable of a conditional check.
      expect(decide({ declaration, observations: [failure], skip: { kind: 'inconclusive', reason: 'r' } }).status).toBe(
        'failed',
      );
    }
  });

  it('an engine error or a time-out stays an error for a conditional check too', () => {
    const threw = decide({
      declaration: conditional,
      ending: { kind: 'threw', error: new TypeError('x is undefined') },
    });
    expect(threw.status).toBe('error');
    const timeout = decide({ declaration: conditional, ending: { kind: 'timeout', message: 'overran' } });
    expect(timeout.status).toBe('error');
  });
});
