// Sandbox fixtures: each `cert-*` job answers at once with the deterministic payload of the spec's
// fixture table. Only what the table states is asserted; wording and notice meaning stay open.

import type { ApiResponse } from '../src/http/types.js';
import type { JsonObject } from '../src/json/lossless.js';
import type { CheckContext, CheckDefinition } from '../src/api-setup/check.js';
import { IMPOSSIBLE_IN_V1, V1_NOTICE_CODES } from '../src/spec/notice-codes.js';
import { S } from '../src/spec/sections.js';
import { arr, describeFound, firstFound, hasLatin, int, isHebrew, obj, objects, show, someOf } from './support.js';

const suite = 'fixtures';
const TARGET = 10;
const FIRST_ID = 990000000001n;

type Status = 'completed' | 'failed' | 'running';

interface FixtureRow {
  name: string;
  status: Status;
  /** "up to N candidates" of the table (before target_count). */
  maxCandidates: number;
  extra?: (t: CheckContext, run: JsonObject, res: ApiResponse) => void;
}

const SLOTS = ['above_list', 'on_candidate', 'on_requirement', 'empty_state'];
const SEVERITIES = ['info', 'warning', 'blocking'];

const KNOWN = {
  top: ['run_id', 'status', 'progress', 'notices', 'candidates', 'sandbox'],
  progress: ['confirmed', 'target', 'screened'],
  notice: ['code', 'severity', 'slot', 'title', 'body', 'ref'],
  candidate: [
    'id',
    'name',
    'title',
    'company',
    'location',
    'verdict',
    'requirements',
    'contact_state',
    'reveal_price_credits',
  ],
  requirement: ['index', 'text', 'kind', 'met', 'evidence'],
  start: ['run_id', 'status', 'warnings', 'requirements', 'sandbox'],
  reveal: ['email', 'phone', 'credits_charged', 'wallet_balance_after', 'sandbox'],
  decisions: ['accepted', 'duplicates'],
};

function hasUnknownField(o: JsonObject, known: string[]): boolean {
  return Object.keys(o).some((k) => !known.includes(k));
}

const ROWS: FixtureRow[] = [
  {
    name: 'cert-notices-all',
    status: 'completed',
    maxCandidates: 6,
    extra(t, run, res) {
      const notices = objects(run.notices);
      const codes = new Set(notices.map((n) => n.code));
      const missing = V1_NOTICE_CODES.filter((c) => !codes.has(c));
      t.expect.that(
        missing.length === 0,
        {
          message: `cert-notices-all lacks notice code(s) ${missing.join(', ')}; the fixture lists the nine codes that can occur in v1`,
          spec: S.sandbox,
          expected: V1_NOTICE_CODES,
          received: [...codes],
        },
        res,
      );
      // "Exactly the nine": a known code the spec says cannot occur in v1 has no place in it. A code
      // unknown to v1 is no failure: new notice codes are additive within v1 (Notice; Versioning 2), so a
      // newer service's fixture of "the codes that can occur in v1" may rightly show one (variant
      // fixtures.notices-all-new-code).
      const impossible = IMPOSSIBLE_IN_V1.filter((c) => codes.has(c));
      t.expect.that(
        impossible.length === 0,
        {
          message: `cert-notices-all shows notice code(s) ${impossible.join(', ')}, which the spec says cannot occur in v1; the fixture holds the nine codes that can occur in v1`,
          spec: S.sandbox,
          expected: V1_NOTICE_CODES,
          received: [...codes],
          pointer: '/notices',
        },
        res,
      );
      const severities = new Set(notices.map((n) => n.severity));
      const missingSev = SEVERITIES.filter((s) => !severities.has(s));
      t.expect.that(
        missingSev.length === 0,
        {
          message: `cert-notices-all lacks severity ${missingSev.join(', ')}; all three severities are present`,
          spec: S.sandbox,
          expected: SEVERITIES,
          received: [...severities],
        },
        res,
      );
      // "each in its slot": requirement_blockers is on_requirement (Notice). Its ref is "Required: no" and
      // this row states no refs (cert-notice-unknown's does): a missing ref is no failure, and a
      // requirement_index that is there must name a requirement of the run (expectRequirementRefs).
      for (const n of notices.filter((x) => x.code === 'requirement_blockers')) {
        t.expect.that(
          n.slot === 'on_requirement',
          {
            message: `requirement_blockers is in slot ${show(n.slot)}; the fixture shows each notice in its slot, and the spec places requirement_blockers on_requirement`,
            spec: S.notice,
            expected: 'on_requirement',
            received: n,
          },
          res,
        );
      }
      const reqs = objects(run.candidates).flatMap((c) => objects(c.requirements));
      const met = new Set(reqs.map((r) => (r.met === null ? 'null' : String(r.met))));
      t.expect.that(
        ['true', 'false', 'null'].every((m) => met.has(m)),
        {
          message: `cert-notices-all candidates do not show met true, false and null`,
          spec: S.sandbox,
          expected: ['true', 'false', 'null'],
          received: [...met],
        },
        res,
      );
      t.expect.that(
        reqs.some((r) => r.evidence === null),
        { message: `cert-notices-all has no requirement with evidence null`, spec: S.sandbox },
        res,
      );
    },
  },
  {
    name: 'cert-notice-unknown',
    status: 'completed',
    maxCandidates: 3,
    extra(t, run, res) {
      const notices = objects(run.notices);
      const probes = notices.filter((n) => n.code === 'zz_certification_probe');
      const slots = new Set(probes.map((n) => n.slot));
      const sevs = new Set(probes.map((n) => n.severity));
      for (const slot of SLOTS) {
        t.expect.that(
          slots.has(slot),
          {
            message: `cert-notice-unknown has no zz_certification_probe notice in slot ${slot}`,
            spec: S.sandbox,
            received: [...slots],
          },
          res,
        );
      }
      for (const sev of SEVERITIES) {
        t.expect.that(
          sevs.has(sev),
          {
            message: `cert-notice-unknown has no zz_certification_probe notice of severity ${sev}`,
            spec: S.sandbox,
            received: [...sevs],
          },
          res,
        );
      }
      // The table lists the unknown-slot and unknown-severity notices as items of their own, without a
      // code: they are looked for among all notices.
      const allSlots = new Set(notices.map((n) => n.slot));
      const allSevs = new Set(notices.map((n) => n.severity));
      t.expect.that(
        allSlots.has('zz_unknown_slot'),
        {
          message: `cert-notice-unknown has no notice in the unknown slot zz_unknown_slot`,
          spec: S.sandbox,
          received: [...allSlots],
        },
        res,
      );
      t.expect.that(
        allSevs.has('zz_unknown_severity'),
        {
          message: `cert-notice-unknown has no notice of the unknown severity zz_unknown_severity`,
          spec: S.sandbox,
          received: [...allSevs],
        },
        res,
      );
      for (const n of probes) {
        if (n.slot === 'on_candidate') {
          t.expect.that(
            int(obj(n.ref)?.candidate_id) !== undefined,
            {
              message: `an on_candidate probe notice has no integer ref.candidate_id`,
              spec: S.notice,
              received: n.ref,
            },
            res,
          );
        }
        if (n.slot === 'on_requirement') {
          t.expect.that(
            int(obj(n.ref)?.requirement_index) !== undefined,
            {
              message: `an on_requirement probe notice has no integer ref.requirement_index`,
              spec: S.notice,
              received: n.ref,
            },
            res,
          );
        }
      }
    },
  },
  {
    name: 'cert-empty',
    status: 'completed',
    maxCandidates: 0,
    extra(t, run, res) {
      const notices = objects(run.notices);
      const wrong = notices.filter((n) => n.slot !== 'empty_state');
      t.expect.that(
        wrong.length === 0,
        {
          message: `cert-empty has notices outside empty_state (${wrong.map((n) => `${String(n.code)} in ${String(n.slot)}`).join(', ')})`,
          spec: S.sandbox,
        },
        res,
      );
      const codes = new Set(notices.map((n) => n.code));
      for (const code of ['run_progress', 'location_relaxed']) {
        t.expect.that(
          codes.has(code),
          { message: `cert-empty has no ${code} notice`, spec: S.sandbox, received: [...codes] },
          res,
        );
      }
    },
  },
  {
    name: 'cert-failed',
    status: 'failed',
    maxCandidates: 0,
    extra(t, run, res) {
      const fe = objects(run.notices).filter((n) => n.code === 'function_error');
      t.expect.that(
        fe.length === 1,
        {
          message: `cert-failed has ${fe.length} function_error notices; the fixture has one`,
          spec: S.sandbox,
          expected: 1,
          received: fe.length,
        },
        res,
      );
      for (const n of fe) {
        t.expect.that(
          n.severity === 'blocking' && n.slot === 'empty_state',
          {
            message: `function_error on a failed run is ${String(n.severity)}/${String(n.slot)}; the spec requires blocking/empty_state`,
            spec: S.notice,
            expected: 'blocking, empty_state',
            received: `${String(n.severity)}, ${String(n.slot)}`,
          },
          res,
        );
      }
    },
  },
  {
    name: 'cert-extra-fields',
    status: 'completed',
    maxCandidates: 3,
    extra(t, run, res) {
      for (const key of ['zz_extra_top_level', 'zz_future_object']) {
        t.expect.that(key in run, { message: `cert-extra-fields has no top-level ${key}`, spec: S.sandbox }, res);
      }
      const where: Array<[string, JsonObject[], string[]]> = [
        ['progress', obj(run.progress) ? [obj(run.progress)!] : [], KNOWN.progress],
        ['every notice', objects(run.notices), KNOWN.notice],
        ['every candidate', objects(run.candidates), KNOWN.candidate],
        [
          'every candidate requirement',
          objects(run.candidates).flatMap((c) => objects(c.requirements)),
          KNOWN.requirement,
        ],
      ];
      for (const [label, items, known] of where) {
        t.expect.that(
          items.every((o) => hasUnknownField(o, known)),
          { message: `cert-extra-fields: not ${label} carries an unknown field`, spec: S.sandbox },
          res,
        );
      }
    },
  },
  { name: 'cert-webhook', status: 'completed', maxCandidates: 3 },
];

/**
 * Every `ref.requirement_index` names a requirement of the run: "the same indexes used in candidates'
 * requirements and notice ref.requirement_index" (POST /runs rule 2; CandidateRequirement). The run's
 * list is the fixture's fixed one, as the start's 202 returned it and its candidates carry it.
 */
function expectRequirementRefs(
  t: CheckContext,
  name: string,
  run: JsonObject,
  res: ApiResponse,
  start: ApiResponse,
): void {
  const listed = [
    ...(start.status === 202 ? objects(obj(start.json)?.requirements) : []),
    ...objects(run.candidates).flatMap((c) => objects(c.requirements)),
  ];
  const known = new Set(
    listed
      .map((q) => int(q.index))
      .filter((i): i is bigint => i !== undefined)
      .map(String),
  );
  objects(run.notices).forEach((n, i) => {
    const ref = obj(n.ref);
    if (ref === undefined || !('requirement_index' in ref)) return;
    const index = int(ref.requirement_index);
    t.expect.that(
      index !== undefined && known.has(index.toString()),
      {
        message: `${name} notice ${show(n.code)} has ref.requirement_index ${show(String(ref.requirement_index))}, which names no requirement of the run (indexes ${[...known].join(', ') || 'none'}); notice ref.requirement_index uses the run's requirement indexes (also POST /runs, requirement rule 2)`,
        spec: S.candidateRequirement,
        expected: [...known].join(', ') || '(the run lists no requirement)',
        received: String(ref.requirement_index),
        pointer: `/notices/${i}/ref/requirement_index`,
      },
      res,
    );
  });
}

/** Schema, status, count and id rules common to every fixture read. */
function expectCommon(
  t: CheckContext,
  name: string,
  res: ApiResponse,
  status: Status | Status[],
  maxCandidates: number,
): JsonObject | undefined {
  if (!t.expect.status(res, 200, S.runsRead)) return undefined;
  t.expect.schema(res.json, 'run', S.run, res);
  const run = obj(res.json);
  if (!run) return undefined;
  const statuses = Array.isArray(status) ? status : [status];
  t.expect.that(
    statuses.includes(run.status as Status),
    {
      message: `${name} read has status ${show(run.status)}; the fixture table requires ${statuses.join(' or ')}`,
      spec: S.sandbox,
      expected: statuses.join(' or '),
      received: run.status,
      pointer: '/status',
    },
    res,
  );
  const named = obj(run.sandbox)?.fixture;
  if (named === undefined) {
    // "Fixture responses carry sandbox: {fixture: <name>}" (Sandbox behaviour) reads two ways; the run
    // start's 202 names the fixture by a plain rule (POST /runs), which fixtures.*.start-accepted-202 checks.
    t.expect.warn(
      false,
      {
        message: `the ${name} run read has no sandbox.fixture`,
        spec: S.sandbox,
        reading:
          '"Fixture responses carry sandbox: {fixture: <name>}" means every response about a fixture run, its reads included',
        otherReading:
          'the sentence may mean the run start\'s response, which POST /runs says carries it "for fixture runs", and the Run resource\'s field list has no sandbox',
        expected: `{"fixture": "${name}"}`,
        received: '(absent)',
        pointer: '/sandbox',
      },
      res,
    );
  } else {
    t.expect.equal(named, name, 'sandbox.fixture of the run read', S.sandbox, res);
  }
  const candidates = objects(run.candidates);
  const cap = Math.min(maxCandidates, TARGET);
  t.expect.that(
    candidates.length <= cap,
    {
      message: `${name} lists ${candidates.length} candidates; at most ${cap} (the fixture's maximum, and never more than target_count ${TARGET})`,
      spec: S.sandbox,
      expected: `<= ${cap}`,
      received: candidates.length,
      pointer: '/candidates',
    },
    res,
  );
  const ids = candidates.map((c) => int(c.id));
  if (ids.length > 0 && ids.every((i) => i !== undefined)) {
    const sorted = [...(ids as bigint[])].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    t.expect.that(
      sorted[0] === FIRST_ID && new Set(sorted.map(String)).size === sorted.length,
      {
        message: `${name} candidate ids do not ascend from 990000000001`,
        spec: S.sandbox,
        expected: 'unique ids, the lowest 990000000001',
        received: ids.map(String).join(', '),
      },
      res,
    );
  }
  return run;
}

function startCheck(name: string): CheckDefinition {
  return {
    id: `fixtures.${name}.start-accepted-202`,
    title: `Starting fixture ${name} answers 202 with a run-start response naming the fixture`,
    suite,
    evidence: 'provoked',
    spec: [S.sandbox, S.runsStart],
    needs: ['sandbox', 'org'],
    async run(t) {
      const { start } = await t.setup.fixtureRun(name, { targetCount: TARGET });
      if (!t.expect.status(start, 202, S.runsStart)) return;
      t.expect.schema(start.json, 'run-start-response', S.runsStart, start);
      const fixture = obj(obj(start.json)?.sandbox)?.fixture;
      t.expect.equal(fixture, name, 'sandbox.fixture of the run start', S.sandbox, start);
      if (name === 'cert-extra-fields') {
        const body = obj(start.json);
        t.expect.that(
          body !== undefined && hasUnknownField(body, KNOWN.start),
          { message: `the cert-extra-fields run start carries no unknown top-level field`, spec: S.sandbox },
          start,
        );
      }
    },
  };
}

/**
 * Notice title and body follow the request language (Resources › Notice; the fixtures' wording comes
 * from the same code as real runs'). Only the script is judged: the wording itself is open, and an
 * English text may still quote Hebrew data (a place, a requirement).
 */
function expectNoticeLanguage(
  t: CheckContext,
  name: string,
  run: JsonObject,
  res: ApiResponse,
  lang: 'he' | 'en',
): void {
  const inLanguage = lang === 'he' ? isHebrew : hasLatin;
  objects(run.notices).forEach((n, i) => {
    const text = `${typeof n.title === 'string' ? n.title : ''} ${typeof n.body === 'string' ? n.body : ''}`;
    t.expect.that(
      inLanguage(text),
      {
        message: `${name} read with x-svc-lang: ${lang} has notice ${show(n.code)} whose title and body contain no ${lang === 'he' ? 'Hebrew' : 'Latin'} letter; notice title and body follow the request language`,
        spec: S.notice,
        expected: lang === 'he' ? 'Hebrew text' : 'English text',
        received: text.slice(0, 120),
        pointer: `/notices/${i}`,
      },
      res,
    );
  });
}

function readCheck(row: FixtureRow, lang: 'he' | 'en'): CheckDefinition {
  return {
    id: `fixtures.${row.name}.read-matches-table${lang === 'en' ? '-en' : ''}`,
    title: `Reading a ${row.name} run (x-svc-lang: ${lang}) gives a valid run with the status, candidates and notices of the fixture table, notices in ${lang === 'he' ? 'Hebrew' : 'English'}, every ref.requirement_index naming a requirement of the run`,
    suite,
    evidence: 'provoked',
    warns: ['a fixture run read carries no sandbox.fixture (the sentence may mean the run start only)'],
    spec: [S.sandbox, S.runsRead, S.run, S.notice, S.candidateRequirement],
    needs: ['sandbox', 'org'],
    async run(t) {
      // The he variant shares the fixture runs started without a language (the default is Hebrew);
      // the en variant starts its own, in English.
      const { runId, start } = await t.setup.fixtureRun(
        row.name,
        lang === 'en' ? { targetCount: TARGET, lang } : { targetCount: TARGET },
      );
      const res = await t.api.get(`/runs/${encodeURIComponent(runId)}`, { lang });
      const run = expectCommon(t, row.name, res, row.status, row.maxCandidates);
      if (!run) return;
      row.extra?.(t, run, res);
      expectRequirementRefs(t, row.name, run, res, start);
      expectNoticeLanguage(t, row.name, run, res, lang);
    },
  };
}

const SLOW_SPEC_MS = 3 * 60_000;

const slowCheck: CheckDefinition = {
  id: 'fixtures.cert-slow.runs-three-minutes-then-completes',
  title:
    'cert-slow stays running about 3 minutes with confirmed rising to target_count, then completes with all of them',
  suite,
  evidence: 'provoked',
  warns: ['a fixture run read carries no sandbox.fixture (the sentence may mean the run start only)'],
  spec: [S.sandbox, S.runsRead, S.run],
  needs: ['sandbox', 'org'],
  timeoutMs: 6 * 60_000,
  async run(t) {
    const { runId, start } = await t.setup.fixtureRun('cert-slow', { targetCount: TARGET });
    // The run was created somewhere between sending the start and the 202's arrival. "Completed too
    // early" is only proven against the send time, "still running too late" only against the arrival,
    // and a read is judged by its arrival or its send time the same way: so a slow answer (load, a
    // high time scale) can never turn into a false failure.
    const startSent = Date.parse(start.exchange.startedAt);
    const startArrived = startSent + start.exchange.durationMs;
    const specSince = (from: number): number => (Date.now() - from) * t.target.timeScale;
    let previousConfirmed = -1;
    // Polls every 5 s of spec time, as the spec advises, up to twice the fixture's duration.
    while (!t.signal.aborted) {
      const sentLate = specSince(startArrived);
      const res = await t.api.get(`/runs/${encodeURIComponent(runId)}`, { priority: 'high' });
      const run = expectCommon(t, 'cert-slow', res, ['running', 'completed'], TARGET);
      if (!run) return;
      const confirmed = Number(int(obj(run.progress)?.confirmed) ?? -1n);
      const listed = arr(run.candidates).length;
      const answeredBy = specSince(startSent);
      if (run.status !== 'running') {
        const early = answeredBy < 0.8 * SLOW_SPEC_MS;
        t.expect.that(
          !early,
          {
            message: `cert-slow is ${String(run.status)} ${Math.round(answeredBy / 1000)} s (spec time) after creation; it stays running for 3 minutes`,
            spec: S.sandbox,
            received: run.status,
          },
          res,
        );
        t.expect.that(
          listed === TARGET,
          {
            message: `completed cert-slow lists ${listed} candidates; it completes with all target_count (${TARGET})`,
            spec: S.sandbox,
            expected: TARGET,
            received: listed,
          },
          res,
        );
        return;
      }
      const ok = [
        t.expect.that(
          confirmed >= previousConfirmed,
          {
            message: `cert-slow progress.confirmed went down from ${previousConfirmed} to ${confirmed}`,
            spec: S.sandbox,
          },
          res,
        ),
        t.expect.that(
          listed <= confirmed,
          {
            message: `cert-slow lists ${listed} candidates with progress.confirmed ${confirmed}; candidates appear as they are confirmed`,
            spec: S.sandbox,
          },
          res,
        ),
        t.expect.that(
          objects(run.notices).some((n) => n.code === 'run_progress'),
          { message: `running cert-slow has no run_progress notice`, spec: S.sandbox },
          res,
        ),
        t.expect.that(
          sentLate < 2 * SLOW_SPEC_MS,
          { message: `cert-slow is still running after twice its 3 minutes`, spec: S.sandbox },
          res,
        ),
      ];
      // One failure is proof enough; polling on would only repeat it.
      if (ok.includes(false)) return;
      previousConfirmed = confirmed;
      // The person waits in real time: that is what is left; spec time only beside it when scaled.
      const specLeftS = Math.max(0, Math.round((SLOW_SPEC_MS - specSince(startSent)) / 1000));
      const realLeftS = Math.round(specLeftS / t.target.timeScale);
      const clock = (s: number): string => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
      const spec = t.target.timeScale === 1 ? '' : ` (${clock(specLeftS)} of spec time)`;
      t.progress(`cert-slow: ${confirmed}/${TARGET} confirmed, ${clock(realLeftS)} left${spec}`);
      await t.sleep(5_000);
    }
  },
};

const extraFieldsElsewhereCheck: CheckDefinition = {
  id: 'fixtures.cert-extra-fields.reveal-and-decisions-carry-extra-fields',
  title: 'The reveal and decisions responses of a cert-extra-fields run carry unknown top-level fields',
  suite,
  evidence: 'provoked',
  spec: [S.sandbox],
  needs: ['sandbox', 'org'],
  async run(t) {
    const [{ runId }, user] = await Promise.all([
      t.setup.fixtureRun('cert-extra-fields', { targetCount: TARGET }),
      t.setup.user(),
    ]);
    const read = await t.api.get(`/runs/${encodeURIComponent(runId)}`);
    if (!t.expect.status(read, 200, S.runsRead)) return;
    const first = objects(obj(read.json)?.candidates)[0];
    const id = first ? int(first.id) : undefined;
    if (id === undefined) {
      t.expect.fail(
        {
          message: `cert-extra-fields lists no candidate to reveal; the fixture lists up to 3`,
          spec: S.sandbox,
          pointer: '/candidates',
        },
        read,
      );
      return;
    }
    const reveal = await t.api.post(`/runs/${encodeURIComponent(runId)}/candidates/${id.toString()}/reveal`, {
      acting_user_external_id: user.externalId,
    });
    if (t.expect.status(reveal, 200, S.sandbox)) {
      const body = obj(reveal.json);
      t.expect.that(
        body !== undefined && hasUnknownField(body, KNOWN.reveal),
        {
          message: `the cert-extra-fields reveal response carries no unknown top-level field; the fixture adds them to the reveal response too`,
          spec: S.sandbox,
          received: body ? Object.keys(body) : undefined,
        },
        reveal,
      );
    }
    const decisions = await t.api.post(`/runs/${encodeURIComponent(runId)}/decisions`, {
      acting_user_external_id: user.externalId,
      decisions: [],
      notices_shown: [],
    });
    if (t.expect.status(decisions, '2xx', S.sandbox)) {
      const body = obj(decisions.json);
      t.expect.that(
        body !== undefined && hasUnknownField(body, KNOWN.decisions),
        {
          message: `the cert-extra-fields decisions response carries no unknown top-level field; the fixture adds them to the decisions response too`,
          spec: S.sandbox,
          received: body ? Object.keys(body) : undefined,
        },
        decisions,
      );
    }
  },
};

const smallTargetCheck: CheckDefinition = {
  id: 'fixtures.never-more-than-target-count',
  title: 'A fixture run never lists more candidates than its target_count (cert-notices-all with target_count 2)',
  suite,
  evidence: 'provoked',
  spec: [S.sandbox, S.run],
  needs: ['sandbox', 'org'],
  async run(t) {
    const { runId } = await t.setup.fixtureRun('cert-notices-all', { targetCount: 2 });
    const res = await t.api.get(`/runs/${encodeURIComponent(runId)}`);
    if (!t.expect.status(res, 200, S.runsRead)) return;
    const listed = arr(obj(res.json)?.candidates).length;
    t.expect.that(
      listed <= 2,
      {
        message: `cert-notices-all with target_count 2 lists ${listed} candidates; a fixture never lists more than target_count`,
        spec: S.sandbox,
        expected: '<= 2',
        received: listed,
        pointer: '/candidates',
      },
      res,
    );
  },
};

/** index and kind of a requirement, the part the run start and the candidates share. */
const indexKind = (q: JsonObject): string =>
  show({ index: int(q.index)?.toString() ?? q.index ?? null, kind: q.kind ?? null });

/** A requirement as comparable text (bigint-safe). */
const requirementText = (q: JsonObject): string =>
  show({ index: int(q.index)?.toString() ?? q.index ?? null, text: q.text ?? null, kind: q.kind ?? null });

/**
 * Whether two lists match item by item under `key`. Compared as they are, not as one text each: the
 * text of a hostile list of a million items was 30 MB, built twice per comparison.
 */
function sameList(a: JsonObject[], b: JsonObject[], key: (q: JsonObject) => string): boolean {
  return a.length === b.length && a.every((q, i) => b[i] !== undefined && key(q) === key(b[i]));
}

/** "3: {…}, {…}, {…}" for a message. */
const describeList = (list: JsonObject[], key: (q: JsonObject) => string): string =>
  `${list.length}: [${someOf(list, key)}]`;

const candidateRequirementsCheck: CheckDefinition = {
  id: 'fixtures.candidate-requirements-match-start',
  title:
    "A fixture's 202 indexes its requirements by position, and each candidate has one requirement per entry, in that order",
  suite,
  evidence: 'provoked',
  spec: [S.sandbox, S.requirement, S.candidate, S.candidateRequirement],
  needs: ['sandbox', 'org'],
  async run(t) {
    // The start is the one fixtures.cert-notices-all.start-accepted-202 judges; only the read is extra.
    const { runId, start } = await t.setup.fixtureRun('cert-notices-all', { targetCount: TARGET });
    if (!t.expect.status(start, 202, S.runsStart)) return;
    const listed = objects(obj(start.json)?.requirements);
    const misplaced = firstFound(listed, (q, i) =>
      int(q.index) === BigInt(i) ? undefined : { at: i, index: String(q.index ?? null) },
    );
    t.expect.that(
      misplaced.count === 0,
      {
        message: `the cert-notices-all run start lists ${misplaced.count} requirement(s) whose index is not their 0-based position: ${describeFound(misplaced)}`,
        spec: S.requirement,
        expected: 'index = position',
        received: describeFound(misplaced),
        pointer: '/requirements',
      },
      start,
    );
    const res = await t.api.get(`/runs/${encodeURIComponent(runId)}`);
    if (!t.expect.status(res, 200, S.runsRead)) return;
    const want = describeList(listed, indexKind);
    for (const c of objects(obj(res.json)?.candidates)) {
      const own = objects(c.requirements);
      const got = describeList(own, indexKind);
      const ok = t.expect.that(
        sameList(own, listed, indexKind),
        {
          message: `fixture candidate ${String(c.id)} has requirements ${got} (index, kind); a candidate has one entry per run requirement, in index order, and the run's list is the fixture's, as its 202 returned: ${want} (see ${S.sandbox})`,
          spec: S.candidate,
          expected: want,
          received: got,
        },
        res,
      );
      if (!ok) return;
    }
  },
};

const submittedRequirementsCheck: CheckDefinition = {
  id: 'fixtures.submitted-requirements-not-used',
  title:
    "A fixture run started with valid requirements still uses the fixture's fixed list (the same 202 requirements as without)",
  suite,
  evidence: 'provoked',
  spec: [S.sandbox, S.runsStart],
  needs: ['sandbox', 'org'],
  async run(t) {
    const [{ start: plain }, user] = await Promise.all([
      t.setup.fixtureRun('cert-empty', { targetCount: TARGET }),
      t.setup.user(),
    ]);
    if (!t.expect.status(plain, 202, S.runsStart)) return;
    // A valid, warning-free requirement: it is validated, then the fixture's own list is used.
    const submitted = [{ text: 'Kotlin', kind: 'nice' }];
    const res = await t.setup.startRun(
      {
        job_external_id: 'cert-empty',
        acting_user_external_id: user.externalId,
        target_count: TARGET,
        requirements: submitted,
      },
      { label: 'start cert-empty with a submitted requirement' },
    );
    if (!t.expect.status(res, 202, S.runsStart)) return;
    const fixedList = objects(obj(plain.json)?.requirements);
    const gotList = objects(obj(res.json)?.requirements);
    const fixed = describeList(fixedList, requirementText);
    const got = describeList(gotList, requirementText);
    t.expect.that(
      sameList(gotList, fixedList, requirementText),
      {
        message: `starting cert-empty with requirements ${show(submitted)} answered 202 with requirements ${got}, not the fixture's fixed list ${fixed} that a start without requirements returned; submitted requirements are only validated, the fixture's payload always uses its fixed list`,
        spec: S.sandbox,
        expected: fixed,
        received: got,
        pointer: '/requirements',
      },
      res,
    );
  },
};

const FIXTURE_NAMES = ROWS.map((r) => r.name).concat('cert-slow');

const unknownFixtureCheck: CheckDefinition = {
  id: 'fixtures.unknown-fixture-422',
  title: 'An unknown cert-* job answers 422 unknown_fixture with fixtures listing the valid names',
  suite,
  evidence: 'provoked',
  spec: [S.sandbox, S.sandboxErrors, S.runsStart],
  needs: ['sandbox', 'org'],
  async run(t) {
    const user = await t.setup.user();
    const res = await t.setup.startRun(
      {
        job_external_id: 'cert-zz-svc-certify-no-such-fixture',
        acting_user_external_id: user.externalId,
        target_count: 1,
      },
      { label: 'start an unknown cert-* fixture' },
    );
    if (!t.expect.error(res, 422, 'unknown_fixture', S.sandboxErrors)) return;
    t.expect.schema(res.json, 'unknown-fixture', S.sandboxErrors, res);
    // "listing valid names": each fixture of the table is one; a list with more names is not refused.
    const listed = arr(obj(res.json)?.fixtures);
    const missing = FIXTURE_NAMES.filter((n) => !listed.includes(n));
    t.expect.that(
      missing.length === 0,
      {
        message: `422 unknown_fixture lists fixtures ${show(listed)}, missing ${missing.join(', ')}; fixtures lists the valid names, which include every fixture of the table`,
        spec: S.sandbox,
        expected: FIXTURE_NAMES,
        received: listed,
        pointer: '/fixtures',
      },
      res,
    );
  },
};

const unregisteredUserCheck: CheckDefinition = {
  id: 'fixtures.start-unregistered-user-404',
  title: 'A fixture start by an acting user never registered answers 404 user_not_found',
  suite,
  evidence: 'provoked',
  spec: [S.sandbox, S.runsStart, S.byEndpoint],
  needs: ['sandbox', 'org'],
  async run(t) {
    await t.setup.org();
    const res = await t.setup.startRun(
      {
        job_external_id: 'cert-empty',
        acting_user_external_id: t.setup.uniqueId('svc-certify-nobody'),
        target_count: 1,
      },
      { label: 'start cert-empty as a user never registered' },
    );
    t.expect.error(res, 404, 'user_not_found', S.sandbox);
  },
};

const fixtureTargetLimitCheck: CheckDefinition = {
  id: 'fixtures.target-count-21-sandbox-limit',
  title: 'A fixture start with target_count 21 answers 422 sandbox_limit',
  suite,
  evidence: 'provoked',
  spec: [S.sandbox, S.sandboxErrors, S.limits],
  needs: ['sandbox', 'org'],
  async run(t) {
    const user = await t.setup.user();
    const res = await t.setup.startRun(
      { job_external_id: 'cert-empty', acting_user_external_id: user.externalId, target_count: 21 },
      { label: 'start cert-empty with target_count 21' },
    );
    t.expect.error(res, 422, 'sandbox_limit', S.sandboxErrors);
  },
};

/** Hebrew letters (the script of x-svc-lang: he). */
const HEBREW = /\p{Script=Hebrew}/u;

const localizedNamesCheck: CheckDefinition = {
  id: 'fixtures.names-localized-he',
  title: 'Fixture candidates read with x-svc-lang: he have names in Hebrew script',
  suite,
  evidence: 'provoked',
  spec: [S.sandbox],
  needs: ['sandbox', 'org'],
  async run(t) {
    // The shared cert-notices-all run, started without a language (the default, Hebrew), read in Hebrew:
    // whether names follow the start's or the read's language, both ask for Hebrew here.
    const { runId } = await t.setup.fixtureRun('cert-notices-all', { targetCount: TARGET });
    const res = await t.api.get(`/runs/${encodeURIComponent(runId)}`, {
      lang: 'he',
      label: 'read cert-notices-all with x-svc-lang: he',
    });
    if (!t.expect.status(res, 200, S.runsRead)) return;
    const candidates = objects(obj(res.json)?.candidates);
    if (
      !t.expect.that(
        candidates.length > 0,
        {
          message: 'cert-notices-all lists no candidate, so no name can be judged; the fixture lists up to 6',
          spec: S.sandbox,
          pointer: '/candidates',
        },
        res,
      )
    )
      return;
    const latin = candidates.filter((c) => typeof c.name !== 'string' || !HEBREW.test(c.name));
    t.expect.that(
      latin.length === 0,
      {
        message: `read with x-svc-lang: he, ${latin.length} of ${candidates.length} fixture candidates have a name without a Hebrew letter (${someOf(latin, (c) => show(c.name ?? null))}); fixture names are obviously fake and localized with x-svc-lang: he`,
        spec: S.sandbox,
        expected: 'names in Hebrew script',
        received: latin.map((c) => c.name ?? null),
        pointer: '/candidates',
      },
      res,
    );
  },
};

export const FIXTURE_CHECKS: CheckDefinition[] = [
  localizedNamesCheck,
  unregisteredUserCheck,
  fixtureTargetLimitCheck,
  unknownFixtureCheck,
  candidateRequirementsCheck,
  submittedRequirementsCheck,
  smallTargetCheck,
  ...ROWS.map((r) => startCheck(r.name)),
  startCheck('cert-slow'),
  ...ROWS.map((r) => readCheck(r, 'he')),
  ...ROWS.map((r) => readCheck(r, 'en')),
  slowCheck,
  extraFieldsElsewhereCheck,
];
