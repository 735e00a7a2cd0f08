// Jobs: an upsert on external_id; a job missing a required field is refused with 422 job_rejected,
// one JobIssue per missing field, and nothing stored. The success status is not shown (any 2xx).
// Every external_id is fresh and never starts with `cert-` (reserved for sandbox fixtures). One check
// reads the shared derived run: a run started before its job's description is replaced keeps what it
// started with.

import type { ApiResponse } from '../src/http/types.js';
import type { JsonObject } from '../src/json/lossless.js';
import type { CheckContext, CheckDefinition } from '../src/api-setup/check.js';
import type { SpecSection } from '../src/spec/section-names.js';
import { expectRejected } from './support/error-answers.js';
import { int, obj, objects } from './support/json-values.js';
import { describeIssues, errorSuffix, show, someOf } from './support/messages.js';
import { secondOrgWithRecruiter } from './support/recruiters.js';
import { acceptedRunId, REAL_RUN_BUDGET_MS } from './support/runs.js';
import { S } from '../src/spec/sections.js';

const suite = 'jobs';

type JobField = 'title' | 'description_text' | 'location_text';

const FULL: Record<JobField, string> = {
  title: 'Data Analyst',
  description_text:
    'We are hiring a data analyst to turn product and sales data into decisions. You will write SQL, build dashboards ' +
    'and present findings to managers. Two years of analytics experience are expected.',
  location_text: 'Haifa, Israel',
};

const ISSUE_CODE: Record<JobField, string> = {
  title: 'title_missing',
  description_text: 'description_missing',
  location_text: 'location_missing',
};

function jobBody(externalId: string, without: JobField[] = []): Record<string, string> {
  const body: Record<string, string> = { external_id: externalId };
  for (const [k, v] of Object.entries(FULL) as Array<[JobField, string]>) if (!without.includes(k)) body[k] = v;
  return body;
}

/** A job refused for its fields: 422 job_rejected, its issues judged only when its body matches the schema. */
const JOB_REJECTED = {
  code: 'job_rejected',
  schema: 'job-rejected',
  spec: S.byEndpoint,
  schemaSpec: S.jobIssue,
  validBody: true,
} as const;

function postJob(t: CheckContext, body: Record<string, string>, label: string): Promise<ApiResponse> {
  return t.api.post('/jobs', body, { label });
}

/** A job created, then posted again with `changed`: its external_id, or undefined when either write was refused. */
async function repostedJob(
  t: CheckContext,
  createLabel: string,
  changed: Record<string, string>,
  againLabel: string,
): Promise<string | undefined> {
  await t.setup.org();
  const externalId = t.setup.uniqueId('svc-certify-job');
  const first = await postJob(t, jobBody(externalId), createLabel);
  if (!t.expect.status(first, '2xx', S.jobs)) return undefined;
  const again = await postJob(t, { ...jobBody(externalId), ...changed }, againLabel);
  return t.expect.status(again, '2xx', S.jobs) ? externalId : undefined;
}

/** The issue for a missing field: its code, the request field it names, both messages. */
function expectIssue(t: CheckContext, res: ApiResponse, issues: JsonObject[], missing: JobField): void {
  const code = ISSUE_CODE[missing];
  const issue = issues.find((i) => i.code === code);
  if (
    !t.expect.that(
      issue !== undefined,
      {
        message: `a job sent without ${missing} was rejected without a ${code} issue in rejected[] (codes: ${issues.map((i) => String(i.code)).join(', ') || 'none'}); ${missing} is required (${code})`,
        spec: S.job,
        expected: code,
        received: issues.map((i) => i.code),
        pointer: '/rejected',
      },
      res,
    )
  ) {
    return;
  }
  t.expect.equal(issue!.field, missing, `\`field\` of the ${code} issue (the request field at fault)`, S.jobIssue, res);
  for (const lang of ['message_he', 'message_en'] as const) {
    const m = issue![lang];
    t.expect.that(
      typeof m === 'string' && m.trim() !== '',
      {
        message: `the ${code} issue has ${m === undefined ? 'no' : 'an empty or non-string'} ${lang}; a JobIssue carries message_he and message_en`,
        spec: S.jobIssue,
        expected: 'a non-empty string',
        received: m === undefined ? 'absent' : show(m),
      },
      res,
    );
  }
}

function missingFieldCheck(field: JobField, idSuffix: string): CheckDefinition {
  return {
    id: `jobs.rejects-missing-${idSuffix}`,
    title: `A job without ${field} is refused with 422 job_rejected and a ${ISSUE_CODE[field]} issue on field ${field}`,
    suite,
    evidence: 'provoked',
    spec: [S.jobs, S.job, S.jobIssue, S.byEndpoint],
    needs: ['org'],
    async run(t) {
      await t.setup.org();
      const res = await postJob(
        t,
        jobBody(t.setup.uniqueId('svc-certify-job'), [field]),
        `create a job without ${field}`,
      );
      const issues = expectRejected(t, res, JOB_REJECTED);
      if (issues) expectIssue(t, res, issues, field);
    },
  };
}

/**
 * Which of "Eilat" (index 0) and "Haifa" (index 1) a run start of the job refuses as
 * location_as_requirement: how the stored job's location_text is read without a read of the job. An
 * empty third requirement refuses the probe either way, so no run starts; rejected[] need not list every
 * offending requirement at once (a service may report the empty one first), so with nothing said about
 * either place the two are submitted again without it ("Haifa" is refused by a conformant service, so
 * no run starts then either). Undefined when an answer was not the 422 (recorded as a failure).
 */
async function placesRefused(
  t: CheckContext,
  externalId: string,
  spec: SpecSection,
  label: string,
): Promise<{ located: number[]; issues: JsonObject[]; answer: ApiResponse } | undefined> {
  const probeWith = (requirements: Array<{ text: string; kind: 'nice' }>, what: string) =>
    t.setup
      .user()
      .then((u) =>
        t.setup.startRun(
          { job_external_id: externalId, acting_user_external_id: u.externalId, target_count: 1, requirements },
          { label: `${label}: ${what}` },
        ),
      );
  const places = [
    { text: 'Eilat', kind: 'nice' as const },
    { text: 'Haifa', kind: 'nice' as const },
  ];
  let answer = await probeWith(
    [...places, { text: ' ', kind: 'nice' }],
    'both places as requirements (refused either way)',
  );
  if (!t.expect.status(answer, 422, S.runsStart)) return undefined;
  let issues = objects(obj(answer.json)?.rejected);
  if (!issues.some((i) => Number(i.index) === 0 || Number(i.index) === 1)) {
    answer = await probeWith(
      places,
      'both places as the only requirements (the first answer listed no issue about them)',
    );
    if (!t.expect.status(answer, 422, spec)) return undefined;
    issues = objects(obj(answer.json)?.rejected);
  }
  const located = issues.filter((i) => i.code === 'location_as_requirement').map((i) => Number(i.index));
  return { located, issues, answer };
}

/**
 * The description the started-description check sends for the derived run's job once its run started:
 * the job's own states a years minimum and four skills, this one other skill and no years, so a service
 * that derives requirements from the description derives lists of other lengths and kinds from the two.
 * The title and location stay: only the description is said to be kept ("Runs already started keep the
 * description they started with"), and the title a start appends is another rule.
 */
const REPLACED_DESCRIPTION =
  'We are hiring a backend engineer to look after our payment systems. You will write Java services and keep them ' +
  'running on Kubernetes.';

/** Polling as the spec guides a client: every 5 seconds while running, for 30 minutes at most. */
const POLL_SPEC_MS = 5_000;
const POLL_LIMIT_SPEC_MS = 30 * 60_000;

/** A requirement list in index order (a candidate's order is another check's). */
function byIndex(list: readonly JsonObject[]): JsonObject[] {
  const at = (q: JsonObject) => int(q.index) ?? -1n;
  return [...list].sort((a, b) => (at(a) < at(b) ? -1 : at(a) > at(b) ? 1 : 0));
}

/** What a read is held to: each requirement's index and kind (its wording is judged apart). */
function shapeOf(list: readonly JsonObject[]): string[] {
  return byIndex(list).map((q) => show({ index: q.index, kind: q.kind }));
}

function textsOf(list: readonly JsonObject[]): string[] {
  return byIndex(list).map((q) => show(q.text));
}

/**
 * Judges one read of the run against the requirements of its 202: each listed candidate has the 202's
 * indexes and kinds (a failure), in its wording (a warning). Returns whether the read listed a
 * candidate, and whether it recorded anything.
 */
function judgeStartedRead(
  t: CheckContext,
  res: ApiResponse,
  n: number,
  started: readonly JsonObject[],
): { listed: boolean; recorded: boolean } {
  const candidates = objects(obj(res.json)?.candidates);
  const want = shapeOf(started);
  const wantTexts = textsOf(started);
  const replaced = `after a repeat POST /jobs (same external_id and title) replaced the job's description_text, read #${n} of the run started before`;
  for (const c of candidates) {
    const own = objects(c.requirements);
    const got = shapeOf(own);
    const same = got.length === want.length && got.every((k, i) => k === want[i]);
    if (
      !t.expect.that(
        same,
        {
          message: `${replaced} lists candidate ${show(c.id)} with ${got.length} requirements ${someOf(got, String)}; the run's 202 gave ${want.length}: ${someOf(want, String)}. Runs already started keep the description they started with, so requirements derived from it stay as they were`,
          spec: S.jobs,
          expected: someOf(want, String),
          received: someOf(got, String),
          pointer: '/candidates',
        },
        res,
      )
    )
      return { listed: true, recorded: true };
    const texts = textsOf(own);
    if (texts.some((x, i) => x !== wantTexts[i])) {
      t.expect.warn(
        false,
        {
          message: `${replaced} lists candidate ${show(c.id)} with the 202's indexes and kinds but the wording ${someOf(texts, String)}, where the 202 gave ${someOf(wantTexts, String)}`,
          spec: S.jobs,
          reading:
            'runs already started keep the description they started with, so the requirements derived from it read as the 202 gave them',
          otherReading:
            "a CandidateRequirement shares its index (and so its requirement) with the run's list, not its wording: a server may word it anew on a read",
          expected: someOf(wantTexts, String),
          received: someOf(texts, String),
          pointer: '/candidates',
        },
        res,
      );
      return { listed: true, recorded: true };
    }
  }
  return { listed: candidates.length > 0, recorded: false };
}

/**
 * A run of the organization's own job started without requirements (so they are derived from its
 * description), then the job sent again with another description: the first read of the run that lists
 * a candidate lists it with the requirements of its 202. What no read can show: a service
 * that would derive the same list from both descriptions, or none from either (then only the title
 * shows, and the check says so rather than pass).
 */
const runKeepsStartedDescription: CheckDefinition = {
  id: 'jobs.run-keeps-started-description',
  title:
    "A run started without requirements keeps those derived from the description it started with: after a repeat POST /jobs replaces description_text, its candidates' requirements read as in its 202",
  suite,
  evidence: 'provoked',
  warns: [
    "a candidate's requirements keep the 202's indexes and kinds but read in other wording after the description was replaced",
  ],
  spec: [S.jobs, S.runsStart, S.candidate, S.candidateRequirement],
  needs: ['org'],
  timeoutMs: REAL_RUN_BUDGET_MS,
  async run(t) {
    // The run is the shared derived run (its 202 also judged by the origin check): one real run for both.
    const { job, start } = await t.setup.derivedRun();
    const runId = acceptedRunId(t, start);
    if (runId === undefined) return;
    const started = objects(obj(start.json)?.requirements);
    const replaced = await postJob(
      t,
      {
        external_id: job.externalId,
        title: job.title,
        location_text: job.locationText,
        description_text: REPLACED_DESCRIPTION,
      },
      'the same job again with another description (same title and location)',
    );
    if (!t.expect.status(replaced, '2xx', S.jobs)) return;
    // Read as a client polls (every 5 s while running, 30 minutes at most) until a read lists a
    // candidate: the first one shows the requirements the run now uses, and reading on to the end
    // would spend the rate budget of the other checks on reads that show the same.
    let listed = false;
    const since = Date.now();
    for (let n = 1; ; n++) {
      const res = await t.api.get(`/runs/${encodeURIComponent(runId)}`, {
        label: `read the run after its job's description was replaced (#${n})`,
      });
      if (!t.expect.status(res, 200, S.runsRead)) return;
      const judged = judgeStartedRead(t, res, n, started);
      if (judged.recorded) return;
      listed = judged.listed;
      const status = obj(res.json)?.status;
      if (listed || status === 'completed' || status === 'failed') break;
      if (t.signal.aborted || Date.now() - since >= POLL_LIMIT_SPEC_MS / t.target.timeScale) break;
      await t.sleep(POLL_SPEC_MS);
    }
    if (!listed) {
      t.skip(
        `the run (${runId}) listed no candidate while it was read, so no read shows the requirements it runs with (a run may end with none)`,
        'not-applicable',
      );
      return;
    }
    // The read agreed with the 202. That shows the kept description only if the 202 shows something
    // derived from it: a list of the job title alone would read the same whatever the description.
    const title = job.title.toLowerCase();
    if (!started.some((q) => typeof q.text === 'string' && q.text.trim().toLowerCase() !== title)) {
      t.skip(
        `the run's candidates read with the requirements of its 202, but the 202 lists no requirement beyond the job title (${someOf(textsOf(started), String)}): nothing derived from the description shows, so no read can tell which description the run uses`,
        'not-applicable',
      );
    }
  },
};

/**
 * The words of a text a requirement may carry from a description: letters and digits, with the dots,
 * pluses and hashes that join a skill's name (Node.js, C++, C#), folded to lower case.
 */
function wordsOf(text: string): Set<string> {
  return new Set(text.toLowerCase().match(WORD) ?? []);
}
const WORD = /[\p{L}\p{N}]+(?:[.+#][\p{L}\p{N}]+)*/gu;

/**
 * The names and numbers a description states that the other one does not (words written with a capital
 * or a digit: Kafka, Redis, 9), folded to lower case. Its ordinary words (write, run, event) are left
 * out: a requirement a service phrases from the other description may use them as well.
 */
function namesOnlyIn(text: string, other: string): Set<string> {
  const otherWords = wordsOf(other);
  return new Set(
    (text.match(WORD) ?? [])
      .filter((w) => /[\p{Lu}\p{N}]/u.test(w))
      .map((w) => w.toLowerCase())
      .filter((w) => !otherWords.has(w)),
  );
}

/**
 * The derived run's job was created with one description and sent again with another before its run
 * started without requirements: what the start derived shows which description the repeat left stored.
 * A requirement naming a skill or number only the replaced description states (and none only the current
 * one states) was derived from the replaced description. How requirements are derived is not shown ("when
 * omitted, requirements are derived from the job description"), so a service whose derived list names
 * none of them shows nothing: the check is conditional.
 */
const repeatReplacesDescription: CheckDefinition = {
  id: 'jobs.upsert-replaces-description',
  title:
    'A repeated POST /jobs replaces description_text: a run started afterwards without requirements derives them from the new description, not the replaced one',
  suite,
  evidence: 'conditional',
  notApplicableWhen:
    'the requirements the run derived name no skill or number that only one of the two descriptions states (how requirements are derived from the description is not shown): nothing tells which description the run started from',
  spec: [S.jobs, S.runsStart],
  needs: ['org'],
  async run(t) {
    const { job, firstDescriptionText, start } = await t.setup.derivedRun();
    if (acceptedRunId(t, start, 'the run started without requirements') === undefined) return;
    const first = namesOnlyIn(firstDescriptionText, job.descriptionText);
    const current = namesOnlyIn(job.descriptionText, firstDescriptionText);
    const title = job.title.trim().toLowerCase();
    let fromCurrent = false;
    for (const q of objects(obj(start.json)?.requirements)) {
      if (typeof q.text !== 'string' || q.text.trim().toLowerCase() === title) continue;
      const words = [...wordsOf(q.text)];
      const onlyFirst = words.filter((w) => first.has(w));
      const onlyCurrent = words.filter((w) => current.has(w));
      fromCurrent ||= onlyCurrent.length > 0;
      if (onlyFirst.length === 0 || onlyCurrent.length > 0) continue;
      t.expect.fail(
        {
          message: `the job was created with one description and sent again (same external_id) with another before a run of it started without requirements; the 202 derived ${show(q.text)}, whose ${someOf(onlyFirst, String)} only the replaced description states. A repeat call replaces title, description_text and location_text, so the run derives from the new description`,
          spec: S.jobs,
          expected: `requirements derived from ${show(job.descriptionText)}`,
          received: q.text,
          pointer: '/requirements',
        },
        start,
      );
      return;
    }
    if (!fromCurrent) {
      t.skip(
        `the run started without requirements derived ${someOf(
          objects(obj(start.json)?.requirements).map((q) => q.text),
          String,
        )}: no requirement beyond the job title names a skill or number that only one of the two descriptions states, so nothing tells which one the run started from`,
        'not-applicable',
      );
    }
  },
};

/** A check that creates jobs in the primary organization (provoked), once that organization exists. */
function jobCreationCheck(
  def: Pick<CheckDefinition, 'id' | 'title'>,
  judge: (t: CheckContext) => Promise<void>,
): CheckDefinition {
  return {
    ...def,
    suite,
    evidence: 'provoked',
    spec: [S.jobs, S.job],
    needs: ['org'],
    async run(t) {
      await t.setup.org();
      await judge(t);
    },
  };
}

export const JOBS_CHECKS: CheckDefinition[] = [
  jobCreationCheck(
    {
      id: 'jobs.create-new-job',
      title: 'Creating a job with a fresh external_id answers 2xx with a uuid job_id and created: true',
    },
    async (t) => {
      const res = await postJob(t, jobBody(t.setup.uniqueId('svc-certify-job')), 'create a job');
      if (!t.expect.status(res, '2xx', S.jobs)) return;
      if (!t.expect.schema(res.json, 'job-response', S.jobs, res)) return;
      // The spec states `updated` only for a repeat, so the first call asserts `created` alone.
      t.expect.equal(obj(res.json)?.created, true, '`created` of the first call with a fresh external_id', S.job, res);
    },
  ),
  jobCreationCheck(
    {
      id: 'jobs.upsert-repeat-same-job',
      title: 'Repeating a job creation returns the same job_id with created: false, updated: true',
    },
    async (t) => {
      const body = jobBody(t.setup.uniqueId('svc-certify-job'));
      const first = await postJob(t, body, 'create a job');
      if (!t.expect.status(first, '2xx', S.jobs)) return;
      const second = await postJob(t, body, 'create it again, same body');
      if (!t.expect.status(second, '2xx', S.jobs)) return;
      if (!t.expect.schema(second.json, 'job-response', S.jobs, second)) return;
      const b = obj(second.json);
      t.expect.equal(
        b?.job_id,
        obj(first.json)?.job_id,
        "`job_id` of the repeat (against the first call's)",
        S.jobs,
        second,
      );
      t.expect.equal(
        { created: b?.created, updated: b?.updated },
        { created: false, updated: true },
        '`created`, `updated` of the repeat',
        S.job,
        second,
      );
    },
  ),
  {
    id: 'jobs.upsert-replaces-location',
    title:
      'A repeated POST /jobs replaces location_text: a requirement naming the new place is then refused as location_as_requirement',
    suite,
    evidence: 'provoked',
    spec: [S.jobs, S.runsStart],
    needs: ['org'],
    async run(t) {
      const externalId = await repostedJob(
        t,
        'create a job in Haifa',
        { location_text: 'Eilat, Israel' },
        'the same job again, now in Eilat',
      );
      if (externalId === undefined) return;
      // The empty second requirement makes sure the probe is refused whatever happens to the first:
      // it never starts a run. A stored Eilat refuses the first as a place of the job's location.
      const user = (await t.setup.user()).externalId;
      const probe = await t.setup.startRun(
        {
          job_external_id: externalId,
          acting_user_external_id: user,
          target_count: 1,
          requirements: [
            { text: 'Eilat', kind: 'nice' },
            { text: ' ', kind: 'nice' },
          ],
        },
        { label: 'start with the new place as a requirement (refused either way)' },
      );
      if (!t.expect.status(probe, 422, S.runsStart)) return;
      let issues = objects(obj(probe.json)?.rejected);
      let answer = probe;
      // rejected[] need not list every offending requirement at once (a service may report the empty
      // one first): with nothing said about "Eilat", it is submitted alone. A conformant service refuses
      // it; one that kept the old location starts a run, which is then this check's evidence.
      if (!issues.some((i) => Number(i.index) === 0)) {
        answer = await t.setup.startRun(
          {
            job_external_id: externalId,
            acting_user_external_id: user,
            target_count: 1,
            requirements: [{ text: 'Eilat', kind: 'nice' }],
          },
          { label: 'start with the new place as the only requirement (the first answer listed no issue about it)' },
        );
        if (!t.expect.status(answer, 422, S.jobs)) return;
        issues = objects(obj(answer.json)?.rejected);
      }
      t.expect.some(
        issues,
        (i) => i.code === 'location_as_requirement' && Number(i.index) === 0,
        {
          what: 'after the job was repeated with location_text "Eilat, Israel", rejected[] of a start with the requirement "Eilat"',
          description:
            'location_as_requirement at index 0 (a repeat call replaces title, description_text and location_text)',
          spec: S.jobs,
          pointer: '/rejected',
          received: describeIssues(issues),
        },
        answer,
      );
    },
  },
  {
    id: 'jobs.upsert-replaces-title',
    title:
      'A repeated POST /jobs replaces title: the new title submitted as a must is the job title, so two more own musts fit (no too_many_musts)',
    suite,
    evidence: 'provoked',
    spec: [S.jobs, S.runsStart],
    needs: ['org'],
    async run(t) {
      const retitled = 'Business Intelligence Analyst';
      const description =
        'We are hiring a BI analyst to own reporting for finance and operations. You will model data, write SQL and run the weekly review.';
      const externalId = await repostedJob(
        t,
        `create a job titled "${FULL.title}"`,
        { title: retitled, description_text: description },
        `the same job again, now titled "${retitled}"`,
      );
      if (externalId === undefined) return;
      // The job title counts as one must unless submitted: with the stored title among three submitted
      // musts nothing is appended and all three fit; a stale title would be appended and refuse the third
      // (too_many_musts). The empty fourth requirement refuses the probe either way: no run is started.
      const user = (await t.setup.user()).externalId;
      const requirements = [
        { text: retitled, kind: 'must' },
        { text: 'SQL', kind: 'must' },
        { text: 'Power BI dashboards', kind: 'must' },
        { text: ' ', kind: 'nice' },
      ];
      const probe = await t.setup.startRun(
        { job_external_id: externalId, acting_user_external_id: user, target_count: 1, requirements },
        { label: 'start with the new title and two more musts (refused either way by the empty fourth)' },
      );
      if (!t.expect.status(probe, 422, S.runsStart)) return;
      const issues = objects(obj(probe.json)?.rejected);
      const tooMany = issues.filter((i) => i.code === 'too_many_musts');
      t.expect.that(
        tooMany.length === 0,
        {
          message: `after the job was repeated with title "${retitled}", a start submitting that title and two more musts refused ${describeIssues(tooMany)}; a repeat call replaces title, so the submitted "${retitled}" is the job title, nothing is appended and three musts fit`,
          spec: S.jobs,
          expected: 'no too_many_musts (only empty_text at index 3)',
          received: describeIssues(issues),
          pointer: '/rejected',
        },
        probe,
      );
    },
  },
  runKeepsStartedDescription,
  repeatReplacesDescription,
  {
    id: 'jobs.external-id-per-organization',
    title:
      "A job's external_id is unique per organization: another organization's run start naming it answers 404 job_not_found, and its POST /jobs with it creates its own job, leaving the first organization's unchanged",
    suite,
    evidence: 'input',
    spec: [S.identifiers, S.jobs, S.runsStart, S.byEndpoint],
    needs: ['org', 'second-org'],
    async run(t) {
      await t.setup.org();
      const second = await secondOrgWithRecruiter(t);
      if (!second) return;
      const asSecond = (label: string) => ({
        auth: { partnerKey: t.inputs.partnerKey, orgToken: second.orgToken },
        label,
      });
      // A job only the first organization created (in Haifa).
      const externalId = t.setup.uniqueId('svc-certify-job');
      const mine = await postJob(t, jobBody(externalId), 'create a job in Haifa in the first organization');
      if (!t.expect.status(mine, '2xx', S.jobs)) return;
      // The second organization has no job of that external_id: "job_external_id unknown" for it.
      const foreign = await t.setup.startRun(
        { job_external_id: externalId, acting_user_external_id: second.user, target_count: 1 },
        asSecond("start a run in the second organization naming the first organization's job"),
      );
      if (!t.expect.error(foreign, 404, 'job_not_found', S.byEndpoint)) return;
      // The same external_id in the second organization is its own job, elsewhere and with another title.
      const theirs = await t.api.post(
        '/jobs',
        { ...jobBody(externalId), title: 'Warehouse Shift Lead', location_text: 'Eilat, Israel' },
        asSecond('create a job of the same external_id in the second organization, in Eilat'),
      );
      if (!t.expect.status(theirs, '2xx', S.jobs)) return;
      const firstId = obj(mine.json)?.job_id;
      const secondId = obj(theirs.json)?.job_id;
      if (typeof firstId === 'string' && typeof secondId === 'string') {
        t.expect.that(
          firstId !== secondId,
          {
            message: `the second organization's POST /jobs with the first organization's external_id answered job_id ${secondId}, the first organization's job; external_id is unique per organization, so it is another job`,
            spec: S.identifiers,
            expected: `a job_id other than ${firstId}`,
            received: secondId,
            pointer: '/job_id',
          },
          theirs,
        );
      }
      // The first organization's job is still in Haifa: a requirement naming Haifa is refused as its
      // location, one naming Eilat is not.
      const probed = await placesRefused(t, externalId, S.identifiers, 'start in the first organization');
      if (!probed) return;
      const { located, issues, answer } = probed;
      t.expect.that(
        located.includes(1) && !located.includes(0),
        {
          message: `after the second organization created its own job of the same external_id in Eilat, a start of the first organization's job refused location_as_requirement at index(es) ${located.join(', ') || 'none'} of ["Eilat", "Haifa"]; the first organization's job keeps its location_text "Haifa, Israel" (index 1 only): another organization's POST /jobs does not change it`,
          spec: S.identifiers,
          expected: 'location_as_requirement at index 1 only',
          received: describeIssues(issues),
          pointer: '/rejected',
        },
        answer,
      );
    },
  },
  missingFieldCheck('title', 'title'),
  missingFieldCheck('description_text', 'description'),
  missingFieldCheck('location_text', 'location'),
  {
    id: 'jobs.rejection-lists-every-missing-field',
    title:
      'A job missing two required fields is refused with an issue for each (at once, or the second once the first is fixed: a warning)',
    suite,
    evidence: 'provoked',
    warns: ['rejected[] names only the first missing field; the second comes once it is fixed'],
    spec: [S.jobs, S.job, S.jobIssue, S.byEndpoint],
    needs: ['org'],
    async run(t) {
      await t.setup.org();
      const externalId = t.setup.uniqueId('svc-certify-job');
      const without: JobField[] = ['description_text', 'location_text'];
      const res = await postJob(
        t,
        jobBody(externalId, without),
        'create a job without description_text and location_text',
      );
      const issues = expectRejected(t, res, JOB_REJECTED);
      if (!issues) return;
      // Every issue present must be right: the field at fault, its code, both messages.
      for (const field of without)
        if (issues.some((i) => i.code === ISSUE_CODE[field])) expectIssue(t, res, issues, field);
      const named = without.filter((f) => issues.some((i) => i.code === ISSUE_CODE[f]));
      const left = without.filter((f) => !named.includes(f));
      if (
        !t.expect.that(
          named.length > 0,
          {
            message: `a job sent without ${without.join(' and ')} was rejected with no issue for either (codes: ${issues.map((i) => String(i.code)).join(', ') || 'none'})`,
            spec: S.job,
            expected: without.map((f) => ISSUE_CODE[f]),
            received: issues.map((i) => i.code),
            pointer: '/rejected',
          },
          res,
        )
      )
        return;
      if (left.length === 0) return;
      // Only some missing fields listed. The spec says what a JobIssue is, not that validation goes on
      // past the first: send the named fields fixed. The rest must be refused then (each is required),
      // and listing it only now is a warning; accepting the job would store it without a required field.
      const again = await postJob(
        t,
        jobBody(externalId, left),
        `the same job with ${named.join(', ')} given, still without ${left.join(', ')}`,
      );
      const second = expectRejected(t, again, {
        code: 'job_rejected',
        schema: 'job-rejected',
        spec: S.byEndpoint,
        schemaSpec: S.jobIssue,
        validBody: true,
      });
      if (!second) return;
      for (const field of left) expectIssue(t, again, second, field);
      if (!left.every((f) => second.some((i) => i.code === ISSUE_CODE[f]))) return;
      t.expect.warn(
        false,
        {
          message: `a job sent without ${without.join(' and ')} was rejected with rejected[] naming only ${named.join(', ')}; ${left.join(', ')} came only once that was fixed`,
          spec: S.jobIssue,
          reading:
            'rejected[] holds one JobIssue per field at fault, so the partner can show every message and fix the job at once',
          otherReading:
            'the spec says what a JobIssue carries, not that validation goes on past the first missing field',
          expected: without.map((f) => ISSUE_CODE[f]).join(', '),
          received: issues.map((i) => String(i.code)).join(', '),
          pointer: '/rejected',
        },
        res,
      );
    },
  },
  {
    id: 'jobs.refused-update-keeps-job',
    title:
      'A refused update of an existing job (422 job_rejected: a new location_text, title missing) leaves the job as it was: a run start still refuses its old place, not the new one, as location_as_requirement',
    suite,
    evidence: 'provoked',
    spec: [S.jobs, S.runsStart, S.byEndpoint],
    needs: ['org'],
    async run(t) {
      // The organization and its recruiter first: every request below goes with its org token.
      await t.setup.user();
      const externalId = t.setup.uniqueId('svc-certify-job');
      const created = await postJob(t, jobBody(externalId), 'create a job in Haifa');
      if (!t.expect.status(created, '2xx', S.jobs)) return;
      // The update moves the job to Eilat but lacks its title: refused, "nothing stored", not even the
      // fields it did carry.
      const refused = await postJob(
        t,
        { ...jobBody(externalId, ['title']), location_text: 'Eilat, Israel' },
        'the same job again, now in Eilat but without title',
      );
      if (!t.expect.error(refused, 422, 'job_rejected', S.byEndpoint)) return;
      // The stored job is read through the location rule of a run start.
      const probed = await placesRefused(t, externalId, S.jobs, 'start the job');
      if (!probed) return;
      const { located, issues, answer } = probed;
      t.expect.that(
        located.includes(1) && !located.includes(0),
        {
          message: `after an update of the job to "Eilat, Israel" was refused with 422 job_rejected, a start of the job refused location_as_requirement at index(es) ${located.join(', ') || 'none'} of ["Eilat", "Haifa"]; a job_rejected stores nothing, so the job keeps its location_text "Haifa, Israel" (index 1 only)`,
          spec: S.jobs,
          expected: 'location_as_requirement at index 1 only',
          received: describeIssues(issues),
          pointer: '/rejected',
        },
        answer,
      );
    },
  },
  {
    id: 'jobs.rejection-stores-nothing',
    title: 'A rejected job is not stored: a run start naming its external_id gives 404 job_not_found',
    suite,
    evidence: 'provoked',
    spec: [S.jobs, S.runsStart, S.byEndpoint],
    needs: ['org'],
    async run(t) {
      const user = await t.setup.user();
      const externalId = t.setup.uniqueId('svc-certify-rejected-job');
      const rejected = await postJob(
        t,
        jobBody(externalId, ['description_text']),
        'create a job without description_text',
      );
      if (!t.expect.error(rejected, 422, 'job_rejected', S.byEndpoint)) return;
      // A 404 run start creates nothing and does not count toward the quota; target 1 keeps a
      // wrongly accepted start as small as possible.
      const start = await t.setup.startRun(
        { job_external_id: externalId, acting_user_external_id: user.externalId, target_count: 1 },
        { label: 'start a run of the rejected job' },
      );
      t.expect.that(
        start.status === 404 && obj(start.json)?.error === 'job_not_found',
        {
          message: `a run start for the external_id of a job refused with 422 job_rejected answered ${start.status}${errorSuffix(start)}; a rejected job stores nothing, so the spec requires 404 job_not_found`,
          spec: S.jobs,
          expected: '404 job_not_found',
          received: String(start.status),
        },
        start,
      );
    },
  },
];
