// Requirements refused with 422 invalid_requirements: each issue code at the index it names.

import type { ApiResponse } from '../../src/http/types.js';
import type { JsonObject } from '../../src/json/lossless.js';
import type { CheckContext, CheckDefinition } from '../../src/api-setup/check.js';
import type { SpecSection } from '../../src/spec/section-names.js';
import { S } from '../../src/spec/sections.js';
import { expectRejected } from '../support/error-answers.js';
import { int, obj, objects } from '../support/json-values.js';
import { describeIssues, show } from '../support/messages.js';
import { PROBE_FIXTURE, probeJob, start, suite } from './starts.js';

export interface Expected {
  index: number;
  code: string;
}

/** The batch sent, and how to send a changed one: lets a partial rejected[] be told from a lenient one. */
export interface Resend {
  submitted: Array<{ text: string; kind: string }>;
  send(requirements: Array<{ text: string; kind: string }>): Promise<ApiResponse>;
}

/**
 * A `422 requirements_rejected` with each expected (index, code) issue in `rejected[]`, and none of
 * the `absent` ones. Other issues are tolerated: new codes may be added. With `resend`, a rejected[]
 * that lists only the earliest offending requirements is put to the test: the listed ones are fixed
 * (a trailing invalid kind keeps the start refused) and the batch sent again. If the target now
 * names the ones it left out, it merely stops at the first offence, which the spec does not forbid: a
 * warning. If it still does not, it accepted an offending requirement: a failure.
 */
async function expectRequirementsRejected(
  t: CheckContext,
  res: ApiResponse,
  expected: Expected[],
  spec: SpecSection,
  what: string,
  absent: Expected[] = [],
  resend?: Resend,
): Promise<JsonObject[] | undefined> {
  const rejected = expectRejected(t, res, { code: 'requirements_rejected', schema: 'requirements-rejected', spec });
  if (!rejected) return undefined;
  const isListed = (list: JsonObject[], e: Expected): boolean =>
    list.some((i) => int(i.index) === BigInt(e.index) && i.code === e.code);
  let missing = expected.filter((e) => !isListed(rejected, e));
  const lastListed = Math.max(-2, ...rejected.map((i) => Number(int(i.index) ?? -2n)));
  const onlyEarliest =
    missing.length > 0 &&
    rejected.length > 0 &&
    missing.every((e) => e.index > lastListed) &&
    rejected.every((i) => expected.some((e) => int(i.index) === BigInt(e.index) && i.code === e.code));
  if (onlyEarliest && resend) {
    const fixedAt = new Set(rejected.map((i) => Number(int(i.index))));
    const batch = resend.submitted.map((r, i) =>
      fixedAt.has(i) ? { text: `Filler skill ${i} ${t.setup.uniqueId('x')}`, kind: 'nice' } : r,
    );
    batch.push({ text: 'Trailing probe', kind: 'zz_keeps_the_start_refused' });
    const again = await resend.send(batch);
    const second = objects(obj(again.json)?.rejected);
    const confirmed = again.status === 422 && missing.every((e) => isListed(second, e));
    if (confirmed) {
      t.expect.warn(
        false,
        {
          message: `${what}: rejected[] lists only ${describeIssues(rejected)}; ${missing.map((e) => `${e.code} at index ${e.index}`).join(', ')} came only once the earlier ones were fixed`,
          spec,
          reading:
            'every offending requirement gets its issue, so a partner can show each message beside its requirement and fix the batch at once',
          otherReading:
            'the spec says what an issue carries, not that validation goes on past the first offending requirement',
          expected: expected.map((e) => `${e.code} at index ${e.index}`).join(', '),
          received: describeIssues(rejected),
          pointer: '/rejected',
        },
        res,
      );
      missing = [];
    }
  }
  for (const e of missing) {
    t.expect.fail(
      {
        message: `${what}: rejected[] lacks ${e.code} at index ${e.index}; it holds ${describeIssues(rejected)}`,
        spec,
        expected: `${e.code} at index ${e.index}`,
        received: describeIssues(rejected),
        pointer: '/rejected',
      },
      res,
    );
  }
  for (const a of absent) {
    t.expect.that(
      !isListed(rejected, a),
      {
        message: `${what}: rejected[] puts ${a.code} at index ${a.index}, which does not break the rule; it holds ${describeIssues(rejected)}`,
        spec,
        expected: `no ${a.code} at index ${a.index}`,
        received: describeIssues(rejected),
        pointer: '/rejected',
      },
      res,
    );
  }
  return rejected;
}

/** A text of exactly `n` characters, words without doubled spaces, no whitespace at either end. */
function textOfLength(n: number): string {
  const words = 'Experience designing and operating distributed backend services with strong testing habits';
  let s = '';
  while (s.length < n) s += (s ? ' ' : '') + words;
  s = s.slice(0, n);
  // Never end on a space: trimming would shorten it.
  return s.endsWith(' ') ? `${s.slice(0, -1)}x` : s;
}

/**
 * A check that provokes a `422 requirements_rejected`: it needs an organization unless it says
 * otherwise, and may warn that rejected[] names only the first offending requirements (see
 * expectRequirementsRejected).
 */
function rejectionCheck(
  def: Pick<CheckDefinition, 'id' | 'title' | 'spec' | 'run'> & { needs?: CheckDefinition['needs'] },
): CheckDefinition {
  const warns = ['rejected[] names only the first offending requirements; the others come once those are fixed'];
  return { ...def, suite, evidence: 'provoked', warns, needs: def.needs ?? ['org'] };
}

/**
 * A check that sends one batch of requirements to a probe job and expects a `422 requirements_rejected`
 * naming each offending position (the spec of the first section cited is the one blamed); a partial
 * rejected[] is put to the test by fixing the listed ones and resending (Resend). The rows state only
 * the batch and what it must be refused for.
 */
function rejectedBatchCheck(row: {
  id: string;
  title: string;
  spec: [SpecSection, ...SpecSection[]];
  submitted: Resend['submitted'];
  expected: Expected[];
  what: string;
}): CheckDefinition {
  return rejectionCheck({
    id: row.id,
    title: row.title,
    spec: row.spec,
    async run(t) {
      const job = await probeJob(t);
      const res = await start(t, job, row.submitted);
      await expectRequirementsRejected(t, res, row.expected, row.spec[0], row.what, [], {
        submitted: row.submitted,
        send: (requirements) => start(t, job, requirements, { label: 'the same batch, the listed issues fixed' }),
      });
    },
  });
}

export const REJECTED_REQUIREMENTS_CHECKS: CheckDefinition[] = [
  rejectedBatchCheck({
    id: 'runs-start.issue-index-is-position',
    title: 'A requirement issue names the 0-based position of the offending requirement in the submitted array',
    spec: [S.requirementIssue, S.runsStart],
    submitted: [
      { text: 'TypeScript', kind: 'must' },
      { text: '', kind: 'nice' },
      { text: 'PostgreSQL', kind: 'nice' },
      { text: 'Kubernetes', kind: 'required' },
    ],
    expected: [
      { index: 1, code: 'empty_text' },
      { index: 3, code: 'invalid_kind' },
    ],
    what: 'an empty text at position 1 and kind "required" at position 3',
  }),
  rejectedBatchCheck({
    id: 'runs-start.empty-text',
    title: 'An empty or whitespace-only requirement text is refused with empty_text at its index',
    spec: [S.runsStart, S.requirementIssue],
    submitted: [
      { text: '', kind: 'nice' },
      { text: 'TypeScript', kind: 'must' },
      { text: ' \t  ', kind: 'nice' },
    ],
    expected: [
      { index: 0, code: 'empty_text' },
      { index: 2, code: 'empty_text' },
    ],
    what: 'texts "" at 0 and " \\t  " at 2',
  }),
  rejectionCheck({
    id: 'runs-start.invalid-kind',
    title: 'A kind other than must or nice is refused with invalid_kind at its index',
    spec: [S.runsStart, S.requirementIssue],
    async run(t) {
      const res = await start(t, await probeJob(t), [
        { text: 'TypeScript', kind: 'must' },
        { text: 'PostgreSQL', kind: 'should' },
      ]);
      await expectRequirementsRejected(t, res, [{ index: 1, code: 'invalid_kind' }], S.runsStart, 'kind "should" at 1');
    },
  }),
  rejectionCheck({
    id: 'runs-start.requirements-not-array',
    title: 'requirements that is not an array is refused with invalid_kind at index -1',
    spec: [S.runsStart, S.requirementIssue],
    async run(t) {
      const res = await start(t, await probeJob(t), 'TypeScript');
      await expectRequirementsRejected(
        t,
        res,
        [{ index: -1, code: 'invalid_kind' }],
        S.runsStart,
        'requirements given as the string "TypeScript"',
      );
    },
  }),
  rejectionCheck({
    id: 'runs-start.too-many-musts',
    title: 'A fourth must is refused with too_many_musts on a must past the cap, not on the first ones',
    spec: [S.runsStart, S.limits, S.requirementIssue],
    // Whether a fixture (no job of the partner's) counts a title as a must is open: fixtures validate
    // "exactly as for a real run" and creating the job is optional. So the cap is hit at index 3 (no
    // title) or at index 2 (a title counted); indexes 0 and 1 are within the cap either way.
    needs: ['sandbox', 'org'],
    async run(t) {
      const what = 'four musts on a fixture run';
      const res = await start(t, PROBE_FIXTURE, [
        { text: 'TypeScript', kind: 'must' },
        { text: 'PostgreSQL', kind: 'must' },
        { text: 'Kubernetes', kind: 'must' },
        { text: 'GraphQL', kind: 'must' },
      ]);
      const rejected = await expectRequirementsRejected(t, res, [], S.runsStart, what, [
        { index: 0, code: 'too_many_musts' },
        { index: 1, code: 'too_many_musts' },
      ]);
      if (rejected === undefined) return;
      const third = (i: JsonObject): boolean =>
        i.code === 'too_many_musts' && (int(i.index) === 2n || int(i.index) === 3n);
      t.expect.some(
        rejected,
        third,
        {
          what: `${what}: rejected[]`,
          description: 'too_many_musts at index 3 (or 2, if a title counts as a must)',
          spec: S.runsStart,
          pointer: '/rejected',
          received: describeIssues(rejected),
        },
        res,
      );
    },
  }),
  rejectionCheck({
    id: 'runs-start.too-many-musts-with-job-title',
    title: "On the partner's own job the title counts as a must: a third submitted must is refused at the third",
    spec: [S.runsStart, S.limits],
    async run(t) {
      const job = await t.setup.job();
      const res = await start(t, job.externalId, [
        { text: 'TypeScript', kind: 'must' },
        { text: 'PostgreSQL', kind: 'must' },
        { text: 'Kubernetes', kind: 'must' },
      ]);
      await expectRequirementsRejected(
        t,
        res,
        [{ index: 2, code: 'too_many_musts' }],
        S.runsStart,
        "three musts on the partner's own job (the title is the fourth)",
        [
          { index: 0, code: 'too_many_musts' },
          { index: 1, code: 'too_many_musts' },
        ],
      );
    },
  }),
  rejectionCheck({
    id: 'runs-start.duplicate',
    title:
      'A requirement equal to an earlier one after trimming, collapsing and case-folding is refused as duplicate on the later one',
    spec: [S.runsStart, S.requirementIssue],
    async run(t) {
      const res = await start(t, await probeJob(t), [
        { text: 'Machine learning', kind: 'nice' },
        { text: 'TypeScript', kind: 'must' },
        { text: '  MACHINE \t Learning ', kind: 'must' },
      ]);
      await expectRequirementsRejected(
        t,
        res,
        [{ index: 2, code: 'duplicate' }],
        S.runsStart,
        '"Machine learning" (nice) at 0 and "  MACHINE \\t Learning " (must) at 2',
        [{ index: 0, code: 'duplicate' }],
      );
    },
  }),
  rejectionCheck({
    id: 'runs-start.too-long',
    title: 'A 301-character requirement is refused with too_long; 300 characters are accepted',
    spec: [S.runsStart, S.limits, S.requirementInput],
    async run(t) {
      const job = await probeJob(t);
      const long = await start(t, job, [
        { text: 'TypeScript', kind: 'must' },
        { text: textOfLength(301), kind: 'nice' },
      ]);
      await expectRequirementsRejected(
        t,
        long,
        [{ index: 1, code: 'too_long' }],
        S.runsStart,
        'a 301-character text at 1',
      );
      if (t.target.environment !== 'sandbox') return; // an accepted start in production would be a real run
      const ok = await start(t, job, [{ text: textOfLength(300), kind: 'nice' }]);
      if (ok.status === 422) {
        const rejected = objects(obj(ok.json)?.rejected);
        t.expect.fail(
          {
            message: `a text of exactly 300 characters was refused (${describeIssues(rejected)}); the limit is at most 300 characters`,
            spec: S.limits,
            expected: '202',
            received: `422 ${describeIssues(rejected)}`,
          },
          ok,
        );
        return;
      }
      t.expect.status(ok, 202, S.runsStart);
    },
  }),
  rejectionCheck({
    id: 'runs-start.location-as-requirement',
    title: "A requirement that is a place of the job's location_text is refused with location_as_requirement",
    spec: [S.runsStart, S.requirementIssue],
    async run(t) {
      const job = await t.setup.job();
      // The first comma-separated part of the location ("Tel Aviv" of "Tel Aviv, Israel") is a place in it.
      const place = job.locationText.split(',')[0]!.trim();
      const res = await start(t, job.externalId, [
        { text: 'TypeScript', kind: 'nice' },
        { text: place, kind: 'nice' },
      ]);
      await expectRequirementsRejected(
        t,
        res,
        [{ index: 1, code: 'location_as_requirement' }],
        S.runsStart,
        `${show(place)} at 1 with location_text ${show(job.locationText)}`,
      );
    },
  }),
];
