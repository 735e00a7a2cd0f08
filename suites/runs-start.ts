// Starting a run: the 202 shape, how submitted requirements come back (order, trimming, the job
// title appended), every rejection and warning code, and the run-start errors and limits.
//
// Budget: rejected starts (422/404) are free, and fixture starts (`cert-*`, sandbox) are free, so
// every rejection and warning is probed there. Accepted starts on the partner's own job cost real
// runs: the shared realRun() (which submits whitespace-padded requirements for this purpose) and
// ONE extra run, of a job of its own, whose submitted requirement is the title.

import type { ApiResponse } from '../src/http/types.js';
import { isJsonObject, parseJsonLossless, type JsonObject } from '../src/json/lossless.js';
import type { CheckContext, CheckDefinition } from '../src/api-setup/check.js';
import { declarationOf, type EvidenceDeclaration } from '../src/runner/evidence.js';
import type { SpecSection } from '../src/spec/section-names.js';
import { secondRunRequirements } from '../src/api-setup/shared-setup.js';
import { S } from '../src/spec/sections.js';
import {
  describeIssues,
  expectRejected,
  int,
  isHebrew,
  obj,
  objects,
  REAL_RUN_BUDGET_MS,
  show,
  someOf,
} from './support.js';
import { describeDelivery, eventOf, field, quietWait, runIdOf } from './webhook-support.js';

/** How long no event may come for a job only refused starts name: twice the spec's usual delivery minute. */
const REFUSED_RUN_WATCH_SPEC_MS = 2 * 60_000;

const suite = 'runs-start';
/** Fixture validated "exactly as for a real run"; its 202s and 422s cost nothing. */
const PROBE_FIXTURE = 'cert-notices-all';

interface ReqInput {
  text: unknown;
  kind: unknown;
}

/** The spec's normalization of a requirement text: trimmed, whitespace collapsed. */
export function normalizeRequirementText(text: string): string {
  return text.trim().replace(/\s+/gu, ' ');
}

/**
 * Job for probes that are refused (422) or that need a 202 for free: the fixture in the sandbox,
 * the shared job in production (a refusal there starts nothing either).
 */
async function probeJob(t: CheckContext): Promise<string> {
  if (t.target.environment === 'sandbox') return PROBE_FIXTURE;
  return (await t.setup.job()).externalId;
}

async function start(
  t: CheckContext,
  jobExternalId: string,
  requirements: unknown,
  opts: { targetCount?: number; user?: string; label?: string } = {},
): Promise<ApiResponse> {
  const user = opts.user ?? (await t.setup.user()).externalId;
  const body: Record<string, unknown> = {
    job_external_id: jobExternalId,
    acting_user_external_id: user,
    target_count: opts.targetCount ?? 3,
  };
  if (requirements !== undefined) body.requirements = requirements;
  // Through the shared setup: a start that turns out real counts in the certification's real runs.
  return t.setup.startRun(body, opts.label ? { label: opts.label } : {});
}

interface Expected {
  index: number;
  code: string;
}

/** The batch sent, and how to send a changed one: lets a partial rejected[] be told from a lenient one. */
interface Resend {
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

/** A 202 whose warnings[] holds the expected issue; other warnings are tolerated. */
function expectWarning(t: CheckContext, res: ApiResponse, e: Expected, what: string): void {
  if (!t.expect.status(res, 202, S.runsStart)) return;
  t.expect.schema(res.json, 'run-start-response', S.runsStart, res);
  const warnings = objects(obj(res.json)?.warnings);
  const what202 = `${what}: the 202's warnings[]`;
  t.expect.some(
    warnings,
    (w) => int(w.index) === BigInt(e.index) && w.code === e.code,
    {
      what: what202,
      description: `${e.code} at index ${e.index}`,
      spec: S.runsStart,
      pointer: '/warnings',
      received: describeIssues(warnings),
    },
    res,
  );
}

/** The requirements the shared real run submitted, read back from its recorded request. */
function submittedRequirements(startRes: ApiResponse): ReqInput[] | undefined {
  const body = startRes.exchange.request.body;
  if (body === undefined) return undefined;
  try {
    const parsed = parseJsonLossless(body);
    if (!isJsonObject(parsed) || !Array.isArray(parsed.requirements)) return undefined;
    return parsed.requirements.filter(isJsonObject).map((r) => ({ text: r.text, kind: r.kind }));
  } catch {
    return undefined;
  }
}

interface RealStart {
  res: ApiResponse;
  submitted: ReqInput[];
  returned: JsonObject[];
}

async function realStart(t: CheckContext): Promise<RealStart | undefined> {
  const { run } = await t.setup.realRun();
  const submitted = submittedRequirements(run.start);
  if (!submitted || submitted.length === 0) {
    t.skip('the shared real run was started without requirements, so there is nothing to compare', 'inconclusive');
    return undefined;
  }
  return { res: run.start, submitted, returned: objects(obj(run.start.json)?.requirements) };
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

const HEBREW_LETTERS = /[\u05D0-\u05EA]/u;

/**
 * A check that sends one batch of requirements to a probe job and expects a `422 requirements_rejected`
 * naming each offending position (the spec of the first section cited is the one blamed); a partial
 * rejected[] is put to the test by fixing the listed ones and resending (Resend). The rows state only
 * the batch and what it must be refused for.
 */
function rejectedBatchCheck(
  row: EvidenceDeclaration & {
    id: string;
    title: string;
    spec: [SpecSection, ...SpecSection[]];
    submitted: Resend['submitted'];
    expected: Expected[];
    what: string;
  },
): CheckDefinition {
  return {
    id: row.id,
    title: row.title,
    suite,
    ...declarationOf(row),
    spec: row.spec,
    needs: ['org'],
    async run(t) {
      const job = await probeJob(t);
      const res = await start(t, job, row.submitted);
      await expectRequirementsRejected(t, res, row.expected, row.spec[0], row.what, [], {
        submitted: row.submitted,
        send: (requirements) => start(t, job, requirements, { label: 'the same batch, the listed issues fixed' }),
      });
    },
  };
}

/** A check that starts a run on the probe fixture with one batch and expects it started with one warning at its index. */
function warningCheck(
  row: EvidenceDeclaration & {
    id: string;
    title: string;
    spec: SpecSection[];
    submitted: Resend['submitted'];
    expected: Expected;
    what: string;
  },
): CheckDefinition {
  return {
    id: row.id,
    title: row.title,
    suite,
    ...declarationOf(row),
    spec: row.spec,
    needs: ['sandbox', 'org'],
    async run(t) {
      expectWarning(t, await start(t, PROBE_FIXTURE, row.submitted), row.expected, row.what);
    },
  };
}

export const RUNS_START_CHECKS: CheckDefinition[] = [
  {
    id: 'runs-start.accepted-response-shape',
    title: 'An accepted run start answers 202 with run_id (uuid), status running, warnings[] and requirements[]',
    suite,
    evidence: 'provoked',
    spec: [S.runsStart, S.runStatus, S.requirement, S.requirementIssue],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      if (t.target.environment === 'sandbox') {
        // A fixture start has the same response shape; its status value is judged on the real run only.
        const { start: fx } = await t.setup.fixtureRun(PROBE_FIXTURE);
        if (t.expect.status(fx, 202, S.runsStart)) t.expect.schema(fx.json, 'run-start-response', S.runsStart, fx);
      }
      const { run } = await t.setup.realRun();
      const res = run.start;
      if (!t.expect.status(res, 202, S.runsStart)) return;
      t.expect.schema(res.json, 'run-start-response', S.runsStart, res);
      const body = obj(res.json);
      t.expect.equal(body?.status, 'running', 'status of the accepted run start', S.runsStart, res);
    },
  },
  {
    id: 'runs-start.requirements-trimmed-and-collapsed',
    title: 'Submitted requirement texts come back trimmed with whitespace collapsed',
    suite,
    evidence: 'provoked',
    spec: [S.runsStart, S.requirement],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const rs = await realStart(t);
      if (!rs) return;
      rs.submitted.forEach((s, i) => {
        if (typeof s.text !== 'string') return;
        const want = normalizeRequirementText(s.text);
        const got = rs.returned[i]?.text;
        t.expect.that(
          got === want,
          {
            message: `requirement ${i} was submitted as ${show(s.text)} and came back as ${show(got)}; the spec returns it trimmed with whitespace collapsed: ${show(want)} (Requirement rules 1)`,
            spec: S.runsStart,
            expected: want,
            received: show(got),
            pointer: `/requirements/${i}/text`,
          },
          rs.res,
        );
      });
    },
  },
  {
    id: 'runs-start.requirements-kept-in-order',
    title: 'Every submitted requirement comes back, in order, with index = its 0-based position and the same kind',
    suite,
    evidence: 'provoked',
    spec: [S.runsStart, S.requirement],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const rs = await realStart(t);
      if (!rs) return;
      const { submitted, returned, res } = rs;
      if (
        !t.expect.that(
          returned.length >= submitted.length,
          {
            message: `${submitted.length} requirements were submitted but the 202 lists ${returned.length}; none may be dropped (Requirement rules 1)`,
            spec: S.runsStart,
            expected: `>= ${submitted.length}`,
            received: returned.length,
            pointer: '/requirements',
          },
          res,
        )
      ) {
        return;
      }
      submitted.forEach((s, i) => {
        const r = returned[i]!;
        const same =
          int(r.index) === BigInt(i) &&
          r.kind === s.kind &&
          typeof s.text === 'string' &&
          r.text === normalizeRequirementText(s.text);
        t.expect.that(
          same,
          {
            message: `requirements[${i}] is ${show({ index: r.index, text: r.text, kind: r.kind })}; the submitted requirement at position ${i} was ${show(s)}, so the spec expects index ${i}, the same kind and its normalized text (Requirement rules 1-2)`,
            spec: S.runsStart,
            expected: show({
              index: i,
              text: typeof s.text === 'string' ? normalizeRequirementText(s.text) : s.text,
              kind: s.kind,
            }),
            received: show({ index: r.index, text: r.text, kind: r.kind }),
            pointer: `/requirements/${i}`,
          },
          res,
        );
      });
    },
  },
  {
    id: 'runs-start.submitted-origin-partner',
    title: "Requirements the partner submitted carry origin 'partner'",
    suite,
    evidence: 'provoked',
    spec: [S.requirement, S.runsStart],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const rs = await realStart(t);
      if (!rs) return;
      rs.submitted.forEach((_, i) => {
        const r = rs.returned[i];
        if (!r) return; // a missing entry is the kept-in-order check's finding
        t.expect.equal(r.origin, 'partner', `origin of submitted requirement ${i}`, S.requirement, rs.res);
      });
    },
  },
  {
    id: 'runs-start.job-title-appended',
    title: "On the partner's own job the job title is appended as the last requirement, a must",
    suite,
    evidence: 'provoked',
    spec: [S.runsStart, S.limits],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const rs = await realStart(t);
      if (!rs) return;
      const job = await t.setup.job();
      const title = normalizeRequirementText(job.title);
      if (
        rs.submitted.some(
          (s) => typeof s.text === 'string' && normalizeRequirementText(s.text).toLowerCase() === title.toLowerCase(),
        )
      ) {
        t.skip('the shared real run submitted the job title itself, so nothing is appended', 'inconclusive');
        return;
      }
      const n = rs.submitted.length;
      const last = rs.returned[rs.returned.length - 1];
      t.expect.that(
        rs.returned.length === n + 1 &&
          last !== undefined &&
          last.text === title &&
          last.kind === 'must' &&
          int(last.index) === BigInt(n),
        {
          message: `the run of the partner's own job (title ${show(title)}) with ${n} submitted requirements lists ${rs.returned.length}, the last being ${show(last ? { index: last.index, text: last.text, kind: last.kind } : undefined)}; the title is added as the last requirement, a must at index ${n} (Requirement rules 3)`,
          spec: S.runsStart,
          expected: show({ index: n, text: title, kind: 'must' }),
          received: show(last ? { index: last.index, text: last.text, kind: last.kind } : undefined),
          pointer: '/requirements',
        },
        rs.res,
      );
    },
  },
  {
    id: 'runs-start.job-title-not-duplicated',
    title: 'When a submitted requirement is the job title, the title is not appended again',
    suite,
    evidence: 'provoked',
    spec: [S.runsStart],
    needs: ['org'],
    async run(t) {
      // The second real run of the shared job submits the job's title as requirement 0 (shared: the
      // sandbox checks that the candidates both runs list keep their pseudonyms).
      const [job, { start: res }] = await Promise.all([t.setup.job(), t.setup.secondRealRun()]);
      if (!t.expect.status(res, 202, S.runsStart)) return;
      const submitted = secondRunRequirements(job.title).length;
      const returned = objects(obj(res.json)?.requirements);
      t.expect.that(
        returned.length === submitted,
        {
          message: `the job title ${show(job.title)} was submitted as requirement 0 of ${submitted}, yet the 202 lists ${returned.length} requirements (${someOf(returned, (r) => show(r.text ?? null))}); the title is added only unless one of the submitted ones is the title (Requirement rules 3)`,
          spec: S.runsStart,
          expected: submitted,
          received: returned.length,
          pointer: '/requirements',
        },
        res,
      );
    },
  },
  rejectedBatchCheck({
    id: 'runs-start.issue-index-is-position',
    title: 'A requirement issue names the 0-based position of the offending requirement in the submitted array',
    evidence: 'provoked',
    warns: ['rejected[] names only the first offending requirements; the others come once those are fixed'],
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
    evidence: 'provoked',
    warns: ['rejected[] names only the first offending requirements; the others come once those are fixed'],
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
  {
    id: 'runs-start.invalid-kind',
    title: 'A kind other than must or nice is refused with invalid_kind at its index',
    suite,
    evidence: 'provoked',
    warns: ['rejected[] names only the first offending requirements; the others come once those are fixed'],
    spec: [S.runsStart, S.requirementIssue],
    needs: ['org'],
    async run(t) {
      const res = await start(t, await probeJob(t), [
        { text: 'TypeScript', kind: 'must' },
        { text: 'PostgreSQL', kind: 'should' },
      ]);
      await expectRequirementsRejected(t, res, [{ index: 1, code: 'invalid_kind' }], S.runsStart, 'kind "should" at 1');
    },
  },
  {
    id: 'runs-start.requirements-not-array',
    title: 'requirements that is not an array is refused with invalid_kind at index -1',
    suite,
    evidence: 'provoked',
    warns: ['rejected[] names only the first offending requirements; the others come once those are fixed'],
    spec: [S.runsStart, S.requirementIssue],
    needs: ['org'],
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
  },
  {
    id: 'runs-start.too-many-musts',
    title: 'A fourth must is refused with too_many_musts on a must past the cap, not on the first ones',
    suite,
    evidence: 'provoked',
    warns: ['rejected[] names only the first offending requirements; the others come once those are fixed'],
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
  },
  {
    id: 'runs-start.too-many-musts-with-job-title',
    title: "On the partner's own job the title counts as a must: a third submitted must is refused at the third",
    suite,
    evidence: 'provoked',
    warns: ['rejected[] names only the first offending requirements; the others come once those are fixed'],
    spec: [S.runsStart, S.limits],
    needs: ['org'],
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
  },
  {
    id: 'runs-start.duplicate',
    title:
      'A requirement equal to an earlier one after trimming, collapsing and case-folding is refused as duplicate on the later one',
    suite,
    evidence: 'provoked',
    warns: ['rejected[] names only the first offending requirements; the others come once those are fixed'],
    spec: [S.runsStart, S.requirementIssue],
    needs: ['org'],
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
  },
  {
    id: 'runs-start.too-long',
    title: 'A 301-character requirement is refused with too_long; 300 characters are accepted',
    suite,
    evidence: 'provoked',
    warns: ['rejected[] names only the first offending requirements; the others come once those are fixed'],
    spec: [S.runsStart, S.limits, S.requirementInput],
    needs: ['org'],
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
  },
  {
    id: 'runs-start.location-as-requirement',
    title: "A requirement that is a place of the job's location_text is refused with location_as_requirement",
    suite,
    evidence: 'provoked',
    warns: ['rejected[] names only the first offending requirements; the others come once those are fixed'],
    spec: [S.runsStart, S.requirementIssue],
    needs: ['org'],
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
  },
  warningCheck({
    id: 'runs-start.warns-short-term',
    title: 'A term shorter than 3 characters starts the run with warning short_term_may_be_dropped',
    evidence: 'provoked',
    spec: [S.runsStart, S.limits],
    submitted: [
      { text: 'TypeScript', kind: 'must' },
      { text: 'Go', kind: 'nice' },
    ],
    expected: { index: 1, code: 'short_term_may_be_dropped' },
    what: 'the 2-character term "Go" at 1',
  }),
  warningCheck({
    id: 'runs-start.warns-years-band-ceiling',
    title: 'A bounded years range starts the run with warning years_band_ceiling',
    evidence: 'provoked',
    spec: [S.runsStart],
    submitted: [
      { text: 'TypeScript', kind: 'nice' },
      { text: '3-5 years of backend experience', kind: 'must' },
    ],
    expected: { index: 1, code: 'years_band_ceiling' },
    what: 'the bounded range "3-5 years of backend experience" at 1',
  }),
  warningCheck({
    id: 'runs-start.warns-unverifiable-must',
    title: 'A must that profiles rarely state (a driving licence) starts the run with warning unverifiable_must',
    evidence: 'provoked',
    spec: [S.runsStart],
    submitted: [
      { text: 'TypeScript', kind: 'nice' },
      { text: 'Valid driving licence', kind: 'must' },
    ],
    expected: { index: 1, code: 'unverifiable_must' },
    what: 'the must "Valid driving licence" at 1',
  }),
  {
    id: 'runs-start.issue-messages-bilingual',
    title:
      'Every requirement issue carries message_he in Hebrew, a non-empty message_en and suggestions that are strings or null',
    suite,
    evidence: 'provoked',
    spec: [S.requirementIssue],
    needs: ['org'],
    async run(t) {
      const issues: Array<{ issue: JsonObject; res: ApiResponse; where: string }> = [];
      const rej = await start(t, await probeJob(t), [
        { text: 'TypeScript', kind: 'must' },
        { text: '   ', kind: 'nice' },
      ]);
      if (!t.expect.error(rej, 422, 'requirements_rejected', S.runsStart)) return;
      t.expect.schema(rej.json, 'requirements-rejected', S.requirementIssue, rej);
      objects(obj(rej.json)?.rejected).forEach((issue, i) => issues.push({ issue, res: rej, where: `rejected[${i}]` }));
      if (t.target.environment === 'sandbox') {
        const warn = await start(t, PROBE_FIXTURE, [{ text: 'Go', kind: 'nice' }]);
        if (t.expect.status(warn, 202, S.runsStart)) {
          t.expect.schema(warn.json, 'run-start-response', S.requirementIssue, warn);
          objects(obj(warn.json)?.warnings).forEach((issue, i) =>
            issues.push({ issue, res: warn, where: `warnings[${i}]` }),
          );
        }
      }
      if (
        !t.expect.that(
          issues.length > 0,
          { message: `a refused start returned an empty rejected[]`, spec: S.runsStart },
          rej,
        )
      )
        return;
      for (const { issue, res, where } of issues) {
        const he = issue.message_he;
        const en = issue.message_en;
        t.expect.that(
          typeof he === 'string' && HEBREW_LETTERS.test(he),
          {
            message: `${where} (${String(issue.code)}) has message_he ${show(he)}, with no Hebrew letter; both languages are always present`,
            spec: S.requirementIssue,
            expected: 'Hebrew text',
            received: show(he),
            pointer: `/${where.replace(/\[(\d+)\]/, '/$1')}/message_he`,
          },
          res,
        );
        t.expect.that(
          typeof en === 'string' && en.trim() !== '' && !isHebrew(en),
          {
            message: `${where} (${String(issue.code)}) has message_en ${show(en)}; an English message is always present`,
            spec: S.requirementIssue,
            expected: 'non-empty English text',
            received: show(en),
            pointer: `/${where.replace(/\[(\d+)\]/, '/$1')}/message_en`,
          },
          res,
        );
      }
    },
  },
  {
    id: 'runs-start.job-not-found',
    title: 'A run start for a job never created is refused with 404 job_not_found',
    suite,
    evidence: 'provoked',
    spec: [S.runsStart, S.byEndpoint],
    needs: ['org'],
    async run(t) {
      const res = await start(t, t.setup.uniqueId('svc-certify-no-such-job'), [{ text: 'TypeScript', kind: 'nice' }]);
      t.expect.error(res, 404, 'job_not_found', S.byEndpoint);
    },
  },
  {
    id: 'runs-start.user-not-found',
    title: 'A run start by an acting user never registered is refused with 404 user_not_found',
    suite,
    evidence: 'provoked',
    spec: [S.runsStart, S.byEndpoint, S.authentication],
    needs: ['org'],
    async run(t) {
      const job = await t.setup.job();
      const res = await start(t, job.externalId, [{ text: 'TypeScript', kind: 'nice' }], {
        user: t.setup.uniqueId('svc-certify-nobody'),
      });
      t.expect.error(res, 404, 'user_not_found', S.byEndpoint);
    },
  },
  {
    id: 'runs-start.rejection-starts-nothing',
    title:
      'A refused run start (422 or 404) creates no run: no run_id that can be read, and (with a webhook receiver) no run event for its job',
    suite,
    evidence: 'provoked',
    spec: [S.runsStart, S.errors, S.runStatus, S.events],
    needs: ['org'],
    timeoutMs: REFUSED_RUN_WATCH_SPEC_MS + 60_000,
    async run(t) {
      const user = (await t.setup.user()).externalId;
      // A job of its own, which only refused starts name: any run event for it proves a run was created.
      const job = t.setup.uniqueId('svc-certify-refused-job');
      const created = await t.api.post(
        '/jobs',
        {
          external_id: job,
          title: 'Backend Developer',
          description_text: 'Build and run Node.js services with PostgreSQL for a hiring platform.',
          location_text: 'Tel Aviv, Israel',
        },
        { label: 'create a job that only refused starts name' },
      );
      if (!t.expect.status(created, '2xx', S.jobs)) return;
      const refused = [
        await start(
          t,
          job,
          [
            { text: 'TypeScript', kind: 'must' },
            { text: '   ', kind: 'nice' },
          ],
          { user, label: 'refused start (422: an empty requirement)' },
        ),
        await start(t, job, [{ text: 'TypeScript', kind: 'nice' }], {
          user: t.setup.uniqueId('svc-certify-nobody'),
          label: 'refused start (404: an unregistered user)',
        }),
      ];
      for (const res of refused) {
        if (!t.expect.status(res, [422, 404], S.runsStart)) return;
        // A refusal that names a run id: that run must not exist.
        const runId = obj(res.json)?.run_id;
        if (typeof runId !== 'string' || runId === '') continue;
        const read = await t.api.get(`/runs/${encodeURIComponent(runId)}`, {
          label: 'read the run id the refusal returned',
        });
        t.expect.that(
          read.status === 404,
          {
            message: `a refused start (${res.status}) returned run_id ${runId}, and reading it answered ${read.status}; a 422 or 404 creates nothing`,
            spec: S.runsStart,
            expected: '404 run_not_found',
            received: String(read.status),
          },
          read,
        );
      }
      // A run, once created, ends completed or failed and emits run_completed or run_failed (Run status),
      // also when its id was never handed out. The usual shape of this bug (the run stored before the
      // requirements are validated, then failed) shows within the delivery window; a run that goes on
      // searching for minutes would show later than this check watches.
      const rx = t.webhooks?.receiver;
      if (!rx) return;
      // A window that must stay empty: watched for as long as a delivery usually takes, twice over.
      const event = await rx.waitFor(
        (d) => field(d, 'job_external_id') === job,
        quietWait(t, REFUSED_RUN_WATCH_SPEC_MS),
        t.signal,
      );
      if (t.signal.aborted) return;
      t.expect.that(event === undefined, {
        message: `after two refused starts (${refused.map((r) => r.status).join(', ')}) of job ${job}, which no accepted start names, ${event ? describeDelivery(event) : ''} arrived for run ${event ? String(runIdOf(event)) : ''} of that job; a 422 or 404 creates nothing, so no run of it can end and emit an event`,
        spec: S.runsStart,
        expected: 'no event for the job',
        received: event ? `${String(eventOf(event))} for run ${String(runIdOf(event))}` : undefined,
      });
    },
  },
  {
    id: 'runs-start.not-idempotent',
    title: 'Two identical accepted run starts start two runs: two different run_ids',
    suite,
    evidence: 'provoked',
    spec: [S.runsStart, S.retries],
    // Fixture starts cost nothing (no quota, no engine); in production a repeat would spend a real run.
    needs: ['sandbox', 'org'],
    async run(t) {
      const shared = await t.setup.fixtureRun('cert-empty');
      const user = (await t.setup.user()).externalId;
      // The very body the shared start sent: every accepted call starts a new run, identical or not.
      const again = await t.setup.startRun(
        { job_external_id: 'cert-empty', acting_user_external_id: user, target_count: 10 },
        { label: 'the same cert-empty start again' },
      );
      if (!t.expect.status(again, 202, S.runsStart)) return;
      const runId = obj(again.json)?.run_id;
      t.expect.that(
        typeof runId === 'string' && runId !== shared.runId,
        {
          message: `an identical second run start answered run_id ${show(runId ?? null)}, the first got ${shared.runId}; run starts are not idempotent: every accepted call starts a new run`,
          spec: S.runsStart,
          expected: `a run_id other than ${shared.runId}`,
          received: String(runId ?? null),
        },
        again,
      );
    },
  },
  {
    id: 'runs-start.sandbox-limit',
    title: 'In the sandbox, target_count 21 is refused with 422 sandbox_limit and max_target_count 20',
    suite,
    evidence: 'provoked',
    spec: [S.sandboxErrors, S.limits, S.runsStart],
    needs: ['sandbox', 'org'],
    async run(t) {
      const job = await t.setup.job();
      const res = await start(t, job.externalId, [{ text: 'TypeScript', kind: 'nice' }], { targetCount: 21 });
      if (!t.expect.error(res, 422, 'sandbox_limit', S.sandboxErrors)) return;
      t.expect.schema(res.json, 'sandbox-limit', S.sandboxErrors, res);
      const max = obj(res.json)?.max_target_count;
      if (int(max) !== undefined) t.expect.equal(max, 20, 'max_target_count', S.limits, res);
    },
  },
  {
    id: 'runs-start.target-count-in-range',
    title: 'target_count below 1 (and above 100 in production) is refused with a 4xx error',
    suite,
    evidence: 'provoked',
    spec: [S.runsStart, S.limits],
    needs: ['org'],
    async run(t) {
      const job = await t.setup.job();
      const counts = t.target.environment === 'production' ? [0, -1, 101] : [0, -1];
      for (const n of counts) {
        const res = await start(t, job.externalId, [{ text: 'TypeScript', kind: 'nice' }], {
          targetCount: n,
          label: `target_count ${n}`,
        });
        const body = obj(res.json);
        t.expect.that(
          res.status >= 400 && res.status < 500 && typeof body?.error === 'string' && typeof body.message === 'string',
          {
            message: `a run start with target_count ${n} answered ${res.status}${typeof body?.error === 'string' ? ` ${body.error}` : ''}; target_count is 1 to ${t.target.environment === 'production' ? 100 : 20}, so it is refused with a 4xx error envelope (see ${S.limits})`,
            spec: S.runsStart,
            expected: '4xx with {error, message}',
            received: String(res.status),
          },
          res,
        );
      }
    },
  },
];
