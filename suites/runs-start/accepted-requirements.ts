// An accepted run start: the 202's shape, and the requirements it returns (trimmed, in order, origin
// partner, the job title appended once).

import type { ApiResponse } from '../../src/http/types.js';
import { isJsonObject, parseJsonLossless, type JsonObject } from '../../src/json/lossless.js';
import type { CheckContext, CheckDefinition } from '../../src/api-setup/check.js';
import { secondRunRequirements } from '../../src/api-setup/shared-setup.js';
import { S } from '../../src/spec/sections.js';
import { SkipCheck } from '../../src/runner/skip-check.js';
import { int, obj, objects } from '../support/json-values.js';
import { show, someOf } from '../support/messages.js';
import { REAL_RUN_BUDGET_MS } from '../support/runs.js';
import { twoStepCheck } from '../support/two-step-check.js';
import { PROBE_FIXTURE, suite } from './starts.js';

interface ReqInput {
  text: unknown;
  kind: unknown;
}

/** The spec's normalization of a requirement text: trimmed, whitespace collapsed. */
function normalizeRequirementText(text: string): string {
  return text.trim().replace(/\s+/gu, ' ');
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

/**
 * A check that judges the requirements the shared real run's start returned against those it
 * submitted (skipped as inconclusive when it submitted none).
 */
function realStartCheck(
  def: Pick<CheckDefinition, 'id' | 'title' | 'spec'>,
  judge: (t: CheckContext, rs: RealStart) => Promise<void> | void,
): CheckDefinition {
  return twoStepCheck(
    { ...def, suite, evidence: 'provoked', needs: ['org'], timeoutMs: REAL_RUN_BUDGET_MS },
    realStart,
    judge,
  );
}

export const ACCEPTED_CHECKS: CheckDefinition[] = [
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
  realStartCheck(
    {
      id: 'runs-start.requirements-trimmed-and-collapsed',
      title: 'Submitted requirement texts come back trimmed with whitespace collapsed',
      spec: [S.runsStart, S.requirement],
    },
    async (t, rs) => {
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
  ),
  realStartCheck(
    {
      id: 'runs-start.requirements-kept-in-order',
      title: 'Every submitted requirement comes back, in order, with index = its 0-based position and the same kind',
      spec: [S.runsStart, S.requirement],
    },
    async (t, rs) => {
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
  ),
  realStartCheck(
    {
      id: 'runs-start.submitted-origin-partner',
      title: "Requirements the partner submitted carry origin 'partner'",
      spec: [S.requirement, S.runsStart],
    },
    async (t, rs) => {
      rs.submitted.forEach((_, i) => {
        const r = rs.returned[i];
        if (!r) return; // a missing entry is the kept-in-order check's finding
        t.expect.equal(r.origin, 'partner', `origin of submitted requirement ${i}`, S.requirement, rs.res);
      });
    },
  ),
  {
    id: 'runs-start.unsent-requirement-origin-not-partner',
    title:
      "A requirement the partner did not send (the appended job title, those derived from the job description on a start without requirements, a fixture's own list) is never marked origin 'partner'",
    suite,
    evidence: 'provoked',
    spec: [S.requirement, S.runsStart],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      // "the value partner marks a requirement the partner sent": what the service adds is not the
      // partner's. Which other value it carries is not shown, so only 'partner' is refused.
      const starts: Array<{ res: ApiResponse; sent: number; what: string }> = [];
      const { run } = await t.setup.realRun();
      const sent = submittedRequirements(run.start)?.length;
      if (sent !== undefined)
        starts.push({ res: run.start, sent, what: 'the shared real run (its job title appended)' });
      // The derived run sends no requirements: all of its 202's are the service's (derived, the title).
      // A used-up run quota skips that run, not what the other starts show.
      const derived = await t.setup.derivedRun().catch((e: unknown) => {
        if (e instanceof SkipCheck) return undefined;
        throw e;
      });
      if (derived?.start.status === 202)
        starts.push({
          res: derived.start,
          sent: 0,
          what: 'a run of a job started without requirements (derived from its description)',
        });
      if (t.target.environment === 'sandbox') {
        // A fixture start sends no requirements: every requirement of its 202 is the fixture's own.
        const { start } = await t.setup.fixtureRun(PROBE_FIXTURE);
        starts.push({ res: start, sent: 0, what: `a ${PROBE_FIXTURE} start without requirements` });
      }
      let judged = 0;
      for (const { res, sent: n, what } of starts) {
        const added = objects(obj(res.json)?.requirements).slice(n);
        judged += added.length;
        const marked = added.filter((r) => r.origin === 'partner');
        t.expect.that(
          marked.length === 0,
          {
            message: `${what} answered requirements ${someOf(marked, (r) => show({ index: r.index, text: r.text, origin: r.origin }))} beyond the ${n} the partner sent, marked origin 'partner'; the value partner marks a requirement the partner sent`,
            spec: S.requirement,
            expected: "an origin other than 'partner'",
            received: someOf(marked, (r) => show(r.origin)),
            pointer: '/requirements',
          },
          res,
        );
      }
      if (judged === 0)
        t.skip(
          'no run start answered a requirement beyond those the partner sent (runs-start.job-title-appended judges the missing title)',
          'inconclusive',
        );
    },
  },
  realStartCheck(
    {
      id: 'runs-start.job-title-appended',
      title: "On the partner's own job the job title is appended as the last requirement, a must",
      spec: [S.runsStart, S.limits],
    },
    async (t, rs) => {
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
  ),
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
];
