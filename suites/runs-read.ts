// Reading a run: the Run schema on every read of the shared real run, status transitions,
// progress, the candidate list and its requirements, notices (codes possible in v1, refs per slot,
// language, function_error placement), int64 candidate ids, sandbox masking, and run_not_found.
//
// Almost everything here judges the reads the shared realRun() already made while polling to the
// end; a check adds at most a read or two of its own.

import type { ApiResponse } from '../src/http/types.js';
import { isJsonObject, JsonDecimal, parseJsonLossless, type JsonObject, type JsonValue } from '../src/json/lossless.js';
import type { CheckContext, CheckDefinition } from '../src/api-setup/check.js';
import { IMPOSSIBLE_IN_V1 } from '../src/spec/notice-codes.js';
import { S } from '../src/spec/sections.js';
import {
  hasLatin,
  int,
  isHebrew,
  obj,
  objects,
  randomUUID,
  REAL_RUN_BUDGET_MS,
  show,
  someOf,
  TWO_POW_53,
} from './support.js';

const suite = 'runs-read';

const TERMINAL = new Set(['completed', 'failed']);
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

interface Read {
  res: ApiResponse;
  run: JsonObject;
  /** 1-based position among the run's reads, for messages. */
  n: number;
}

interface RealRunView {
  runId: string;
  start: ApiResponse;
  /** The 200 reads, in order. */
  reads: Read[];
  targetCount: number | undefined;
  /** Requirements of the 202, by position. */
  requirements: JsonObject[];
}

function requestBody(res: ApiResponse): JsonObject | undefined {
  const text = res.exchange.request.body;
  if (text === undefined) return undefined;
  try {
    const v = parseJsonLossless(text);
    return isJsonObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** How often, and how many times at most, the second real run is read for candidates in common. */
const SECOND_RUN_READS = 4;
const SECOND_RUN_READ_EVERY_SPEC_MS = 30_000;

async function realRun(t: CheckContext): Promise<RealRunView> {
  const { run, reads } = await t.setup.realRun();
  const ok = reads.filter((r) => r.status === 200 && isJsonObject(r.json));
  const target = int(requestBody(run.start)?.target_count);
  return {
    runId: run.runId,
    start: run.start,
    reads: ok.map((res, i) => ({ res, run: res.json as JsonObject, n: i + 1 })),
    targetCount: target === undefined ? undefined : Number(target),
    requirements: objects(obj(run.start.json)?.requirements),
  };
}

/** One more read of the run after the setup's last one (a terminal run must read the same). */
async function readAgain(t: CheckContext, runId: string, label: string, lang?: 'he' | 'en'): Promise<Read | undefined> {
  const res = await t.api.get(`/runs/${encodeURIComponent(runId)}`, { label, ...(lang ? { lang } : {}) });
  if (!t.expect.status(res, 200, S.runsRead)) return undefined;
  if (!isJsonObject(res.json)) return undefined;
  return { res, run: res.json, n: 0 };
}

/** A JSON integer token within int64 (a number with a fraction or an exponent is not one). */
function isInt64(v: JsonValue | undefined): boolean {
  const i = typeof v === 'bigint' ? v : typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : undefined;
  return i !== undefined && i >= INT64_MIN && i <= INT64_MAX;
}

function where(r: Read): string {
  return r.n > 0 ? `read #${r.n}` : 'a later read';
}

function progressOf(run: JsonObject): { confirmed?: bigint; target?: bigint; screened?: bigint } {
  const p = obj(run.progress);
  return { confirmed: int(p?.confirmed), target: int(p?.target), screened: int(p?.screened) };
}

function idKey(v: JsonValue | undefined): string | undefined {
  const i = int(v);
  return i === undefined ? undefined : i.toString();
}

/** The requirement indexes of a run: those its 202 listed and those its candidates carry. */
function requirementIndexes(start: ApiResponse, reads: Read[]): Set<string> {
  const listed = [
    ...objects(obj(start.json)?.requirements),
    ...reads.flatMap((r) => objects(r.run.candidates).flatMap((c) => objects(c.requirements))),
  ];
  return new Set(listed.map((q) => idKey(q.index)).filter((x): x is string => x !== undefined));
}

/** One ref against its slot: a requirement index of the run, or an int64 candidate id. */
function judgeRef(
  t: CheckContext,
  r: Read,
  at: string,
  ni: number,
  n: JsonObject,
  indexes: Set<string>,
  known: string,
): boolean {
  const ref = obj(n.ref);
  if (n.slot === 'on_requirement') {
    const raw = ref?.requirement_index;
    const i = isInt64(raw) ? BigInt(raw as number | bigint) : undefined;
    return t.expect.that(
      i !== undefined && i >= 0n && indexes.has(i.toString()),
      {
        message: `notice ${show(n.code)} in slot on_requirement on ${at} has ref ${show(n.ref)}; a ref on on_requirement carries requirement_index, an integer >= 0 naming one of the run's requirements (${known})`,
        spec: S.notice,
        expected: `ref.requirement_index in ${known}`,
        received: show(n.ref),
        pointer: `/notices/${ni}/ref`,
      },
      r.res,
    );
  }
  return t.expect.that(
    isInt64(ref?.candidate_id),
    {
      message: `notice ${show(n.code)} in slot on_candidate on ${at} has ref ${show(n.ref)}; a ref on on_candidate carries candidate_id, an int64 integer`,
      spec: S.notice,
      expected: 'ref.candidate_id, an int64 integer',
      received: show(n.ref),
      pointer: `/notices/${ni}/ref`,
    },
    r.res,
  );
}

/** Stops a per-read loop at the first read that failed: one proof is enough, fifty repeats are noise. */
function eachRead(reads: Read[], judge: (r: Read) => boolean): void {
  for (const r of reads) if (!judge(r)) return;
}

// Conservative detectors: they must never flag masked text or ordinary prose (years, versions).
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/u;
const URL = /\b(?:https?:\/\/|www\.)[^\s"'<>]+/iu;
// A link typed without its scheme (linkedin.com/in/someone): a host under a common top-level domain
// written in lower case, then a path that reads like a link's. Stacks and names written with dots and
// slashes are prose: "ASP.NET/MVC" and "VB.NET/C#" (an upper-case .NET), "socket.io/redis" or
// "Node.js/React" (a path of plain words), "Booking.com" (no path), "@socket.io/redis-adapter" (a package).
const SCHEMELESS_URL =
  /(?<![\w@./-])(?:[A-Za-z0-9-]+\.)+(?:com|net|org|io|dev|co|il|me|app|ai|info)(?:\.[a-z]{2})?\/([^\s"'<>]*)/gu;
// A link's path: digits, hyphens and the like ("dana-levi-42", "watch?v=…"), or a profile prefix ("in/…").
const LINK_PATH = /[0-9_~%?=&@-]|^(?:in|pub|u|user|users|profile|company|p)\/[^/\s]/u;

/** The first link written without a scheme, if any; exported for unit tests of the detector. */
export function findSchemelessLink(text: string): string | undefined {
  for (const m of text.matchAll(SCHEMELESS_URL)) if (LINK_PATH.test(m[1] ?? '')) return m[0];
  return undefined;
}

// Phones: a leading + with 9 or more digits, or a national grouping (3-3-4, 2-3-4, 3-7; the first group
// may be in parentheses) separated by -, . or a space. Runs of years ("2016 - 2018 2018 - 2023") and
// version numbers ("Node.js 18.0.1") are not phones, however many digits they hold.
const PHONE_INTERNATIONAL = /(?<![\w+])\+\d[\d\s().-]{7,}\d/gu;
const PHONE_NATIONAL =
  /(?<![\w.+-])(?:(?:\(\d{2,3}\)\s?|\d{2,3}[-. ])\d{3}[-. ]\d{4}|(?:\(\d{3}\)\s?|\d{3}[-. ])\d{7})(?![\d\p{L}_]|[-.]\d)/gu;
// A national number typed without separators: a trunk 0 and 8 or 9 more digits (0521234567, 031234567),
// alone; ids and other digit runs do not start with 0 or are longer.
const PHONE_UNSEPARATED = /(?<![\w+.-])0\d{8,9}(?![\w]|[-.]\d)/u;
const YEAR = /^(?:19|20)\d{2}$/u;
// x.y or x.y.z with short parts after the first ("18.0.1", "2024.1.15"); a dotted 555.010.1234 stays a phone.
const VERSION = /^\d+\.\d{1,3}(?:\.\d{1,3})?$/u;

/** True when every token of the match is a 4-digit year or a version number. */
function yearsOrVersions(match: string): boolean {
  const tokens = match
    .replace(/^\+/u, '')
    .split(/[\s()-]+/u)
    .filter((x) => x !== '');
  return tokens.length > 0 && tokens.every((x) => YEAR.test(x) || VERSION.test(x));
}

/** The first phone number in text, if any; exported for unit tests of the detector. */
export function findPhone(text: string): string | undefined {
  for (const m of text.matchAll(PHONE_INTERNATIONAL)) {
    const s = m[0];
    if ((s.match(/\d/gu)?.length ?? 0) >= 9 && !yearsOrVersions(s)) return s;
  }
  for (const m of text.matchAll(PHONE_NATIONAL)) if (!yearsOrVersions(m[0])) return m[0];
  return PHONE_UNSEPARATED.exec(text)?.[0];
}

/** The first e-mail, link or phone number left in text, if any; exported for unit tests of the detectors. */
export function exposedContact(text: string): string | undefined {
  return EMAIL.exec(text)?.[0] ?? URL.exec(text)?.[0] ?? findSchemelessLink(text) ?? findPhone(text);
}

/** How long the short-run check waits for the short real run to end: the 30 minutes clients poll a run. */
const SHORT_RUN_END_SPEC_MS = 30 * 60_000;
/** Without a webhook of its end, the short real run is read this often while it runs. */
const SHORT_RUN_END_READ_EVERY_SPEC_MS = 30_000;
/** With a receiver, how long its run_completed / run_failed is awaited once the first real run has ended. */
const SHORT_RUN_DELIVERY_GRACE_SPEC_MS = 5 * 60_000;

function endsRun(runId: string): (d: { json: JsonValue | undefined }) => boolean {
  return (d) => {
    const b = obj(d.json);
    return b?.run_id === runId && (b.event === 'run_completed' || b.event === 'run_failed');
  };
}

/**
 * The short real run (started by shared setup, not followed) read once it has ended: it starts with the
 * first, so once the first has ended its run_completed / run_failed delivery is awaited (no request),
 * then it is read, and read again every 30 s while it still runs, up to 30 minutes after its start.
 * Undefined after a failed read.
 */
async function shortRunAtEnd(t: CheckContext): Promise<{ read: Read; target: number | undefined } | undefined> {
  const second = await t.setup.shortRealRun();
  const started = Date.now();
  const target = int(requestBody(second.start)?.target_count);
  await realRun(t);
  const scale = t.target.timeScale;
  // Everything ends by 30 minutes after the second run's start, within the check's budget.
  const deadline = started + SHORT_RUN_END_SPEC_MS / scale;
  const rx = t.webhooks?.receiver;
  if (rx) {
    const grace = Math.min(SHORT_RUN_DELIVERY_GRACE_SPEC_MS / scale, deadline - Date.now());
    await rx.waitFor(endsRun(second.runId), grace, t.signal);
  }
  for (let n = 1; ; n++) {
    const read = await readAgain(t, second.runId, `read the short real run (#${n})`);
    if (!read) return undefined;
    const done = typeof read.run.status === 'string' && TERMINAL.has(read.run.status);
    if (done || t.signal.aborted || Date.now() >= deadline)
      return { read, target: target === undefined ? undefined : Number(target) };
    await t.sleep(SHORT_RUN_END_READ_EVERY_SPEC_MS);
  }
}

/**
 * Judged on the real runs the certification reads to their end. A run short of its target, a failed
 * run, a requirement_blockers notice: each arises from the service's own outcome, so a certification
 * where none arose has nothing to judge (not applicable), whatever it arranged to provoke them.
 */
const RUN_OUTCOME_CHECKS: CheckDefinition[] = [
  {
    id: 'runs-read.short-run-explained-by-notice',
    title:
      'A real run that completes with fewer candidates than its target_count carries at least one notice (notices say why)',
    suite,
    evidence: 'conditional',
    notApplicableWhen: 'every real run read filled its target: no run ended short to be explained',
    spec: [S.runStatus, S.run, S.notice],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      // The first run's last read, and the short run (target 20, narrow musts: arranged to be short).
      // Both asked for at once, so the short run starts with the first, not after it.
      const [first, short] = await Promise.all([realRun(t), shortRunAtEnd(t)]);
      if (!short) return;
      const ended: Array<{ r: Read; target: number | undefined; which: string }> = [
        { r: short.read, target: short.target, which: 'the short real run' },
      ];
      const last = first.reads[first.reads.length - 1];
      if (last) ended.unshift({ r: last, target: first.targetCount, which: 'the shared real run' });
      const shortOnes = ended.filter(
        (e) =>
          e.r.run.status === 'completed' && e.target !== undefined && objects(e.r.run.candidates).length < e.target,
      );
      if (shortOnes.length === 0) {
        t.skip(
          `no real run completed short of its target: ${ended.map((e) => `${e.which} read ${show(e.r.run.status)} with ${objects(e.r.run.candidates).length} of ${e.target ?? '?'} candidates`).join('; ')} (the short run asks for 20 with narrow musts to provoke it); how many candidates a run finds is the service's own outcome`,
          'not-applicable',
        );
        return;
      }
      for (const e of shortOnes) {
        const listed = objects(e.r.run.candidates).length;
        t.expect.that(
          objects(e.r.run.notices).length > 0,
          {
            message: `${e.which} completed with ${listed} of its target_count ${e.target} candidates and no notice; a run may stop short of its target, "and notices say why"`,
            spec: S.runStatus,
            expected: 'at least one notice',
            received: show(e.r.run.notices ?? null),
            pointer: '/notices',
          },
          e.r.res,
        );
      }
    },
  },
  {
    id: 'runs-read.failed-run-explained-by-notice',
    title:
      'A failed run (cert-failed in the sandbox, any real run that failed) carries at least one notice that explains it, function_error or another',
    suite,
    evidence: 'provoked',
    spec: [S.runStatus, S.run, S.notice],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const reads: Array<{ r: Read; which: string }> = [];
      if (t.target.environment === 'sandbox') {
        const { runId } = await t.setup.fixtureRun('cert-failed');
        const r = await readAgain(t, runId, 'read cert-failed');
        if (!r) return;
        reads.push({ r, which: 'the cert-failed run' });
      }
      for (const r of (await realRun(t)).reads) reads.push({ r, which: `${where(r)} of the shared real run` });
      const failed = reads.filter((x) => x.r.run.status === 'failed');
      if (failed.length === 0) {
        // A real run fails only by the service's doing; cert-failed not failing is the fixtures suite's finding.
        t.skip(
          t.target.environment === 'sandbox'
            ? 'neither cert-failed nor the shared real run read failed, so no failed run could be judged'
            : 'no run read during the certification failed (a production run cannot be made to fail), so no failed run could be judged',
          t.target.environment === 'sandbox' ? 'inconclusive' : 'not-applicable',
        );
        return;
      }
      eachRead(
        failed.map((x) => x.r),
        (r) => {
          const which = failed.find((x) => x.r === r)?.which ?? where(r);
          return t.expect.that(
            objects(r.run.notices).length > 0,
            {
              message: `${which} reads failed with no notice; when a run fails "a notice (typically function_error, slot empty_state) explains"`,
              spec: S.runStatus,
              expected: 'at least one notice',
              received: show(r.run.notices ?? null),
              pointer: '/notices',
            },
            r.res,
          );
        },
      );
    },
  },
  {
    id: 'runs-read.requirement-blockers-on-requirement',
    title: 'requirement_blockers on a real run, whenever it appears, is in slot on_requirement',
    suite,
    evidence: 'conditional',
    notApplicableWhen: 'no real run read carried a requirement_blockers notice',
    spec: [S.notice],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const v = await realRun(t);
      const seen = v.reads.filter((r) => objects(r.run.notices).some((n) => n.code === 'requirement_blockers'));
      if (seen.length === 0) {
        t.skip(
          `no read of the shared real run (${v.reads.length}) showed requirement_blockers; whether a run shows it is the service's own outcome`,
          'not-applicable',
        );
        return;
      }
      eachRead(seen, (r) => {
        const misplaced = objects(r.run.notices).filter(
          (n) => n.code === 'requirement_blockers' && n.slot !== 'on_requirement',
        );
        return t.expect.that(
          misplaced.length === 0,
          {
            message: `${where(r)} of the shared real run places requirement_blockers in slot ${someOf(misplaced, (n) => show(n.slot))}; the spec gives requirement_blockers the slot on_requirement`,
            spec: S.notice,
            expected: 'on_requirement',
            received: someOf(misplaced, (n) => show(n.slot)),
            pointer: '/notices',
          },
          r.res,
        );
      });
    },
  },
  {
    id: 'runs-read.screened-never-decreases',
    title: 'progress.screened (candidates examined so far) never decreases from one read of a run to the next',
    suite,
    evidence: 'provoked',
    spec: [S.run],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const v = await realRun(t);
      const later = await readAgain(t, v.runId, 'read the run again');
      let prev: { screened: bigint; r: Read } | undefined;
      let compared = 0;
      for (const r of later ? [...v.reads, later] : v.reads) {
        const screened = progressOf(r.run).screened;
        if (screened === undefined) continue; // the schema check reports it
        if (prev !== undefined) compared++;
        if (
          prev !== undefined &&
          !t.expect.that(
            screened >= prev.screened,
            {
              message: `progress.screened went from ${prev.screened} (${where(prev.r)}) down to ${screened} (${where(r)}); screened counts the candidates examined so far`,
              spec: S.run,
              expected: `>= ${prev.screened}`,
              received: screened.toString(),
              pointer: '/progress/screened',
            },
            r.res,
          )
        )
          return;
        prev = { screened, r };
      }
      if (compared === 0)
        t.skip(
          'fewer than two reads of the shared real run carried an integer progress.screened (runs-read.run-schema reports it), so nothing could be compared',
          'inconclusive',
        );
    },
  },
];

export const RUNS_READ_CHECKS: CheckDefinition[] = [
  ...RUN_OUTCOME_CHECKS,
  {
    id: 'runs-read.run-schema',
    title: 'Every read of a real run is a Run: run_id, status, progress, notices and candidates of the right types',
    suite,
    evidence: 'provoked',
    spec: [S.runsRead, S.run, S.notice, S.candidate, S.candidateRequirement],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const v = await realRun(t);
      eachRead(v.reads, (r) => {
        const ok = t.expect.schema(r.run, 'run', S.run, r.res);
        return t.expect.equal(r.run.run_id, v.runId, `run_id of ${where(r)}`, S.run, r.res) && ok;
      });
    },
  },
  {
    id: 'runs-read.status-transitions',
    title: 'A real run goes from running to completed or failed, and a terminal status stays on later reads',
    suite,
    evidence: 'conditional',
    notApplicableWhen:
      'the shared real run was still running when polling stopped (a run may outlast the 30 minutes of polling): no terminal status to judge',
    spec: [S.runStatus, S.run],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const v = await realRun(t);
      let terminal: string | undefined;
      for (const r of v.reads) {
        const status = r.run.status;
        if (terminal !== undefined) {
          if (
            !t.expect.equal(status, terminal, `status of ${where(r)} after the run was ${terminal}`, S.runStatus, r.res)
          )
            return;
        } else if (typeof status === 'string' && TERMINAL.has(status)) {
          terminal = status;
        }
      }
      if (terminal === undefined) {
        // How long a run works is the service's own choice (no duration is set; clients stop polling
        // after 30 minutes): a run still running then leaves no transition to judge.
        t.skip(
          'the shared real run was still running when polling stopped (30 minutes, where clients stop polling; the spec sets no duration for a run), so no terminal status was seen',
          'not-applicable',
        );
        return;
      }
      const later = await readAgain(t, v.runId, 'read the finished run again');
      if (later)
        t.expect.equal(
          later.run.status,
          terminal,
          `status of a read after the run was ${terminal}`,
          S.runStatus,
          later.res,
        );
    },
  },
  {
    id: 'runs-read.real-run-ends-within-30-minutes',
    title:
      'The real run reaches completed or failed within the 30 minutes of running after which clients stop polling (longer warns); a run that emitted its terminal event never reads running again',
    suite,
    evidence: 'provoked',
    warns: [
      'a read shows a status other than running, completed or failed (treated as running)',
      'the real run still reads running after the 30 minutes of polling',
    ],
    spec: [S.runStatus, S.runsRead, S.run, S.limits],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const v = await realRun(t);
      // A status outside the three is read as running by clients (Versioning 3), yet status values are
      // not among the additive changes Versioning lists: a warning, not a failure.
      const odd = v.reads.find(
        (r) => typeof r.run.status === 'string' && !['running', 'completed', 'failed'].includes(r.run.status),
      );
      if (odd) {
        t.expect.warn(
          false,
          {
            message: `${where(odd)} of the real run has status ${show(odd.run.status)}; the Run status is running, completed or failed, and any other value is treated as running`,
            spec: S.run,
            reading:
              'a status outside running/completed/failed is a new status, which Versioning does not list among the additive changes of v1',
            otherReading: 'Resources › Run says any other value is treated as running, so a client stays correct',
          },
          odd.res,
        );
      }
      if (t.signal.aborted) return;
      const last = v.reads[v.reads.length - 1];
      const status = last?.run.status;
      if (typeof status === 'string' && TERMINAL.has(status)) {
        t.expect.that(true, { message: `the real run ${v.runId} read ${status}`, spec: S.runStatus }, last?.res);
        return;
      }
      // The spec puts no limit on a run ("keeps working for several minutes"); 30 minutes is when
      // clients stop polling. Only the service's own word that the run ended can make "running" wrong:
      // a run_completed / run_failed it delivered for this run ("emitted" when the run reaches that
      // state; completed and failed are terminal) followed by a read that still says running.
      const rx = t.webhooks?.receiver;
      const ended = rx?.deliveries().find((d) => {
        const body = obj(d.json);
        return body?.run_id === v.runId && (body.event === 'run_completed' || body.event === 'run_failed');
      });
      if (ended) {
        const event = String(obj(ended.json)?.event);
        const again = await readAgain(t, v.runId, `read the run again after its ${event} delivery`);
        if (!again) return;
        const now = again.run.status;
        t.expect.that(
          typeof now === 'string' && TERMINAL.has(now),
          {
            message: `the service delivered ${event} for the real run ${v.runId} (delivery #${ended.seq}), so the run reached ${event === 'run_completed' ? 'completed' : 'failed'}, yet a read sent after that delivery still says ${show(now ?? null)}; ${event} is emitted when the run reaches that state, and completed and failed are terminal`,
            spec: S.runStatus,
            expected: event === 'run_completed' ? 'completed' : 'failed',
            received: show(now ?? null),
            pointer: '/status',
          },
          again.res,
        );
        return;
      }
      t.expect.warn(
        false,
        {
          message: `the real run ${v.runId} still read ${show(status ?? null)} after 30 minutes of polling (spec time, ${v.reads.length} reads), so the certifier stopped waiting for it (clients stop polling after 30 minutes of running, see ${S.runsRead})`,
          spec: S.limits,
          expected: 'completed or failed within 30 minutes',
          received: show(status ?? null),
          reading: 'a run that clients stop polling after 30 minutes should have ended by then',
          otherReading:
            'the spec puts no limit on a run: a cold run "keeps working for several minutes", and 30 minutes of running is client polling guidance ("stop after 30 minutes of running"), not a duration the run must keep to',
        },
        last?.res,
      );
    },
  },
  {
    id: 'runs-read.progress-monotonic',
    title:
      'progress.confirmed never decreases from one read of a run to the next, nor falls below the candidates listed',
    suite,
    evidence: 'provoked',
    spec: [S.run, S.runStatus],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const v = await realRun(t);
      const later = await readAgain(t, v.runId, 'read the run again');
      let prev: { confirmed: bigint; r: Read } | undefined;
      for (const r of later ? [...v.reads, later] : v.reads) {
        const confirmed = progressOf(r.run).confirmed;
        if (confirmed === undefined) continue; // the schema check reports it
        // Listed candidates are confirmed ones: confirmed cannot be below them (a read that sees the run
        // only after its end still shows a drop this way).
        const listed = objects(r.run.candidates).length;
        const ok =
          t.expect.that(
            BigInt(listed) <= confirmed,
            {
              message: `${where(r)} lists ${listed} candidates with progress.confirmed ${confirmed}; confirmed counts the candidates confirmed so far and the list grows toward it`,
              spec: S.run,
              expected: `>= ${listed}`,
              received: confirmed.toString(),
              pointer: '/progress/confirmed',
            },
            r.res,
          ) &&
          (prev === undefined ||
            t.expect.that(
              confirmed >= prev.confirmed,
              {
                message: `progress.confirmed went from ${prev.confirmed} (${where(prev.r)}) down to ${confirmed} (${where(r)}); confirmed counts the candidates confirmed so far`,
                spec: S.run,
                expected: `>= ${prev.confirmed}`,
                received: confirmed.toString(),
                pointer: '/progress/confirmed',
              },
              r.res,
            ));
        if (!ok) return;
        prev = { confirmed, r };
      }
    },
  },
  {
    id: 'runs-read.progress-consistent',
    title: "progress.target is the run's target_count and confirmed is at most target",
    suite,
    evidence: 'provoked',
    spec: [S.run],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const v = await realRun(t);
      eachRead(v.reads, (r) => {
        // screened is "secondary information" with no stated relation to confirmed: not asserted.
        const { confirmed, target } = progressOf(r.run);
        if (confirmed === undefined || target === undefined) return true; // schema check
        const checks = [
          v.targetCount === undefined ||
            t.expect.equal(
              Number(target),
              v.targetCount,
              `progress.target of ${where(r)} (the run was started with target_count ${v.targetCount})`,
              S.run,
              r.res,
            ),
          t.expect.that(
            confirmed <= target,
            {
              message: `${where(r)} has progress.confirmed ${confirmed} above progress.target ${target}`,
              spec: S.run,
              expected: `<= ${target}`,
              received: confirmed.toString(),
              pointer: '/progress/confirmed',
            },
            r.res,
          ),
        ];
        return !checks.includes(false);
      });
    },
  },
  {
    id: 'runs-read.candidates-within-target',
    title: 'A real run never lists more candidates than its target_count',
    suite,
    evidence: 'provoked',
    spec: [S.run, S.runsStart],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const v = await realRun(t);
      const target = v.targetCount;
      if (target === undefined) {
        t.skip('the target_count of the shared real run could not be read from its start request', 'inconclusive');
        return;
      }
      eachRead(v.reads, (r) => {
        const listed = objects(r.run.candidates).length;
        return t.expect.that(
          listed <= target,
          {
            message: `${where(r)} lists ${listed} candidates; the run was started with target_count ${target}`,
            spec: S.run,
            expected: `<= ${target}`,
            received: listed,
            pointer: '/candidates',
          },
          r.res,
        );
      });
    },
  },
  {
    id: 'runs-read.candidate-list-grows',
    title: 'A candidate listed on one read of a run is still listed on every later read',
    suite,
    evidence: 'provoked',
    spec: [S.run, S.runStatus],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const v = await realRun(t);
      const later = await readAgain(t, v.runId, 'read the run again');
      const seen = new Map<string, Read>();
      for (const r of later ? [...v.reads, later] : v.reads) {
        const ids = new Set(
          objects(r.run.candidates)
            .map((c) => idKey(c.id))
            .filter((x): x is string => x !== undefined),
        );
        const lost = [...seen.keys()].filter((id) => !ids.has(id));
        if (lost.length > 0) {
          t.expect.fail(
            {
              message: `candidate ${lost.join(', ')} listed on ${where(seen.get(lost[0]!)!)} is gone on ${where(r)}; while running the candidates grow, and confirmed candidates stay valid`,
              spec: S.runStatus,
              expected: `still listed: ${lost.join(', ')}`,
              received: [...ids].join(', ') || '(none)',
              pointer: '/candidates',
            },
            r.res,
          );
          return;
        }
        for (const id of ids) if (!seen.has(id)) seen.set(id, r);
      }
    },
  },
  {
    id: 'runs-read.candidate-requirements-complete',
    title: "Each candidate has one requirement per run requirement, with the 202's index and kind",
    suite,
    evidence: 'provoked',
    spec: [S.candidate, S.candidateRequirement, S.runsStart],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const v = await realRun(t);
      // The spec shares the index (and so the requirement, and its kind) with the run's list, not the
      // wording: a server may normalize or localize text per read, so text is not compared.
      const want = v.requirements.map((q) => ({ index: q.index, kind: q.kind }));
      const wantKeys = want.map((q) => show(q)).sort();
      eachRead(v.reads, (r) => {
        for (const c of objects(r.run.candidates)) {
          const got = objects(c.requirements).map((q) => ({ index: q.index, kind: q.kind }));
          const gotKeys = got.map((q) => show(q)).sort();
          const ok = t.expect.that(
            gotKeys.length === wantKeys.length && gotKeys.every((k, i) => k === wantKeys[i]),
            {
              message: `candidate ${show(c.id)} on ${where(r)} has ${got.length} requirements ${someOf(got)}; it has one entry per run requirement, with the index and kind of the run start's ${want.length}: ${someOf(want)}`,
              spec: S.candidate,
              expected: someOf(want),
              received: someOf(got),
            },
            r.res,
          );
          if (!ok) return false;
        }
        return true;
      });
    },
  },
  {
    id: 'runs-read.candidate-requirements-in-index-order',
    title: "Each candidate's requirements are listed in index order",
    suite,
    evidence: 'provoked',
    spec: [S.candidate, S.candidateRequirement],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const v = await realRun(t);
      eachRead(v.reads, (r) => {
        for (const c of objects(r.run.candidates)) {
          const indexes = objects(c.requirements).map((q) => int(q.index));
          const ascending = indexes.every((x, i) => x !== undefined && (i === 0 || x > indexes[i - 1]!));
          const ok = t.expect.that(
            ascending,
            {
              message: `candidate ${show(c.id)} on ${where(r)} lists its requirements in index order ${someOf(indexes, String)}; they are in index order`,
              spec: S.candidate,
              expected: 'ascending indexes',
              received: someOf(indexes, String),
            },
            r.res,
          );
          if (!ok) return false;
        }
        return true;
      });
    },
  },
  {
    id: 'runs-read.notice-ref-matches-slot',
    title:
      'A ref, when present, fits its slot: a requirement index of the run for on_requirement, an int64 candidate_id for on_candidate',
    suite,
    evidence: 'conditional',
    notApplicableWhen: 'no notice of the runs read carried a ref (ref is optional): no ref to match to its slot',
    spec: [S.notice, S.candidateRequirement],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      // ref is "Required: no": a missing ref is no failure. Nor need an on_candidate ref name a listed
      // candidate (no rule says so); only its type is asserted. A requirement index is the run's own.
      // Refs are provoked where the spec states them, cert-notice-unknown's ("ref.candidate_id for
      // on_candidate, ref.requirement_index for on_requirement"), and judged wherever else they appear.
      const sources: Array<{ what: string; reads: Read[]; indexes: Set<string> }> = [];
      if (t.target.environment === 'sandbox') {
        const { runId, start } = await t.setup.fixtureRun('cert-notice-unknown');
        const r = await readAgain(t, runId, 'read cert-notice-unknown');
        if (r) sources.push({ what: 'cert-notice-unknown', reads: [r], indexes: requirementIndexes(start, [r]) });
      }
      // A real run that never ends (read until the polling window closed) is judged on what was read.
      const v = await realRun(t);
      sources.push({ what: 'the shared real run', reads: v.reads, indexes: requirementIndexes(v.start, []) });
      let judged = 0;
      for (const { what, reads, indexes } of sources) {
        const known = [...indexes].join(', ') || 'none';
        let held = true;
        eachRead(reads, (r) => {
          for (const [ni, n] of objects(r.run.notices).entries()) {
            if (n.ref === undefined || n.ref === null) continue;
            if (n.slot !== 'on_requirement' && n.slot !== 'on_candidate') continue;
            judged += 1;
            held = judgeRef(t, r, `${where(r)} of ${what}`, ni, n, indexes, known);
            if (!held) return false;
          }
          return true;
        });
        if (!held) return;
      }
      if (judged > 0) return;
      const readCount = sources.reduce((sum, s) => sum + s.reads.length, 0);
      if (t.target.environment === 'sandbox') {
        // The fixture table states cert-notice-unknown's refs: their absence is the fixture checks' finding.
        t.skip(
          `no notice in slot on_requirement or on_candidate carried a ref on cert-notice-unknown (whose refs the fixture table states) nor on the ${readCount - 1} read(s) of the shared real run, so no ref could be judged`,
          'inconclusive',
        );
        return;
      }
      t.skip(
        `no notice in slot on_requirement or on_candidate carried a ref on the ${readCount} read(s) of the shared real run; a ref is optional (Notice: ref "Required: no"), so there was none to judge`,
        'not-applicable',
      );
    },
  },
  {
    id: 'runs-read.notice-codes-possible-in-v1',
    title:
      'A real run never shows widen_hint, relaxation_ladder, global_relaxed or lean_search_failed, which cannot occur in v1',
    suite,
    evidence: 'provoked',
    spec: [S.notice, S.versioning],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const v = await realRun(t);
      // New, unknown codes are allowed (they appear without warning); the four known-but-impossible ones are not.
      eachRead(v.reads, (r) => {
        const bad = objects(r.run.notices)
          .map((n) => n.code)
          .filter((c): c is string => typeof c === 'string' && IMPOSSIBLE_IN_V1.includes(c));
        return t.expect.that(
          bad.length === 0,
          {
            message: `${where(r)} shows notice code ${bad.join(', ')}; the spec says ${IMPOSSIBLE_IN_V1.join(', ')} cannot occur in v1`,
            spec: S.notice,
            expected: 'none of the four codes impossible in v1',
            received: bad.join(', '),
            pointer: '/notices',
          },
          r.res,
        );
      });
    },
  },
  {
    id: 'runs-read.function-error-blocking-empty-state',
    title: 'function_error on a failed run has severity blocking and slot empty_state',
    suite,
    evidence: 'conditional',
    notApplicableWhen:
      'no run read failed with a function_error notice (a failed run is "typically" explained by one; a production run cannot be made to fail)',
    spec: [S.notice, S.runStatus],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const reads: Read[] = [];
      if (t.target.environment === 'sandbox') {
        // A failed run on demand: the cert-failed fixture (free); its notices come from the same code as real runs'.
        const { runId } = await t.setup.fixtureRun('cert-failed');
        const r = await readAgain(t, runId, 'read cert-failed');
        if (r) reads.push(r);
      }
      reads.push(...(await realRun(t)).reads);
      if (!reads.some((r) => r.run.status === 'failed')) {
        // Production cannot be asked to fail a run: with none failed there is no such notice to judge.
        // The sandbox's cert-failed should have been one: then the target left nothing to judge.
        const kind = t.target.environment === 'sandbox' ? 'inconclusive' : 'not-applicable';
        t.skip(
          'no run read during the certification failed (a production run cannot be made to fail), so no function_error notice of a failed run could be seen',
          kind,
        );
        return;
      }
      const notices = reads.filter((r) => r.run.status === 'failed').flatMap((r) => objects(r.run.notices));
      if (!notices.some((n) => n.code === 'function_error')) {
        // "typically function_error": a failed run may explain itself with another notice.
        t.skip(
          'the failed run(s) carried no function_error notice (the spec says a notice typically function_error explains a failure), so none could be judged',
          'inconclusive',
        );
        return;
      }
      for (const r of reads) {
        if (r.run.status !== 'failed') continue;
        for (const n of objects(r.run.notices).filter((x) => x.code === 'function_error')) {
          t.expect.that(
            n.severity === 'blocking' && n.slot === 'empty_state',
            {
              message: `function_error on a failed run (${where(r)}) is ${show(n.severity)}/${show(n.slot)}; the spec requires severity blocking, slot empty_state`,
              spec: S.notice,
              expected: 'blocking, empty_state',
              received: `${show(n.severity)}, ${show(n.slot)}`,
            },
            r.res,
          );
        }
      }
    },
  },
  {
    id: 'runs-read.notice-language',
    title: 'Notice title and body follow the request language: Hebrew with x-svc-lang he, English with en',
    suite,
    evidence: 'conditional',
    notApplicableWhen: 'the shared real run showed no notice: no notice language to judge',
    spec: [S.notice, S.commonHeaders],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const v = await realRun(t);
      const he = await readAgain(t, v.runId, 'read in Hebrew', 'he');
      const en = await readAgain(t, v.runId, 'read in English', 'en');
      for (const n of he ? objects(he.run.notices) : []) {
        const text = `${String(n.title)} ${String(n.body)}`;
        t.expect.that(
          isHebrew(text),
          {
            message: `with x-svc-lang: he, notice ${show(n.code)} reads ${show(n.title)} / ${show(n.body)}, with no Hebrew letter; title and body follow the request language`,
            spec: S.notice,
            expected: 'Hebrew title/body',
            received: text,
          },
          he!.res,
        );
      }
      // Only the script is judged, as for the fixtures: English text may quote Hebrew data (a place, a
      // requirement as the recruiter wrote it), so it needs some Latin text, not a Latin majority.
      for (const n of en ? objects(en.run.notices) : []) {
        const text = `${String(n.title)} ${String(n.body)}`;
        t.expect.that(
          hasLatin(text),
          {
            message: `with x-svc-lang: en, notice ${show(n.code)} reads ${show(n.title)} / ${show(n.body)}, with no Latin letter; title and body follow the request language`,
            spec: S.notice,
            expected: 'English title/body',
            received: text,
          },
          en!.res,
        );
      }
    },
  },
  {
    id: 'runs-read.candidate-id-int64',
    title: 'Candidate ids (and ref.candidate_id) are JSON integers within int64, written as exact integer tokens',
    suite,
    evidence: 'provoked',
    spec: [S.identifiers, S.candidate, S.limits],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const reads: Read[] = [];
      if (t.target.environment === 'sandbox') {
        const { runId } = await t.setup.fixtureRun('cert-notices-all');
        const r = await readAgain(t, runId, 'read cert-notices-all');
        if (r) reads.push(r);
      }
      const v = await realRun(t);
      reads.push(...v.reads);
      eachRead(reads, (r) => {
        // Met one at a time: a list of them all first was a million objects for a hostile read.
        const values = function* (): Generator<{ v: JsonValue | undefined; at: string }> {
          for (const [i, c] of objects(r.run.candidates).entries()) yield { v: c.id, at: `/candidates/${i}/id` };
          for (const [i, n] of objects(r.run.notices).entries()) {
            const ref = obj(n.ref);
            if (ref && 'candidate_id' in ref) yield { v: ref.candidate_id, at: `/notices/${i}/ref/candidate_id` };
          }
        };
        for (const { v: id, at } of values()) {
          const isInt = (typeof id === 'number' && Number.isInteger(id)) || typeof id === 'bigint';
          const value = isInt ? BigInt(id as number | bigint) : undefined;
          const ok = t.expect.that(
            value !== undefined && value >= INT64_MIN && value <= INT64_MAX,
            {
              message: `${where(r)}: ${at} is ${typeof id === 'string' ? `the string ${show(id)}` : id instanceof JsonDecimal ? `the non-integer token ${id.raw}` : show(id)}; candidate ids are JSON integers (int64)`,
              spec: S.identifiers,
              expected: 'an integer token within int64',
              received: show(id),
              pointer: at,
            },
            r.res,
          );
          if (!ok) return false;
          // Beyond 2^53 a double cannot hold the id: the exact digits must be on the wire.
          if (value !== undefined && (value > TWO_POW_53 || value < -TWO_POW_53)) {
            const exact = new RegExp(`(?<![\\d.])${value.toString()}(?![\\d.eE])`).test(r.res.text);
            if (
              !t.expect.that(
                exact,
                {
                  message: `${where(r)}: ${at} ${value} does not appear as exact digits in the body`,
                  spec: S.identifiers,
                  pointer: at,
                },
                r.res,
              )
            )
              return false;
          }
        }
        return true;
      });
    },
  },
  {
    id: 'runs-read.run-not-found',
    title: 'Reading a run id that does not exist answers 404 run_not_found',
    suite,
    evidence: 'provoked',
    spec: [S.runsRead, S.byEndpoint],
    needs: ['org'],
    async run(t) {
      await t.setup.org();
      const res = await t.api.get(`/runs/${randomUUID()}`);
      t.expect.error(res, 404, 'run_not_found', S.byEndpoint);
    },
  },
  {
    id: 'runs-read.other-organization-404',
    title: "Reading another organization's run answers 404 run_not_found, never 403 or the run",
    suite,
    evidence: 'input',
    spec: [S.runsRead, S.byEndpoint],
    needs: ['org', 'second-org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const second = await t.setup.secondOrg();
      if (!second) {
        t.skip(t.setup.codeShortage('typed'));
        return;
      }
      // The primary organization's run: a free fixture run in the sandbox, the shared real run in production.
      const runId =
        t.target.environment === 'sandbox'
          ? (await t.setup.fixtureRun('cert-notices-all')).runId
          : (await t.setup.realRun()).run.runId;
      const res = await t.api.get(`/runs/${encodeURIComponent(runId)}`, {
        auth: { partnerKey: t.inputs.partnerKey, orgToken: second.orgToken },
        label: "read the first organization's run with the second organization's token",
      });
      t.expect.error(res, 404, 'run_not_found', S.byEndpoint);
    },
  },
  {
    id: 'sandbox.pseudonym-stable-across-runs',
    title: 'In the sandbox a candidate listed by both real runs carries the same "Candidate XXXX" in both',
    suite: 'sandbox',
    evidence: 'provoked',
    spec: [S.sandbox, S.candidate],
    needs: ['sandbox', 'org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      if (t.inputs.realNamesEnabled === true) {
        t.skip(
          'real names are enabled for the partner (--real-names-enabled): there are no pseudonyms to compare',
          'not-applicable',
        );
        return;
      }
      // The second run is of a twin of the shared job (its own external_id: a service may never list a
      // candidate twice for one job) with the same requirements, so any ranking finds the same
      // candidates; it is read once the first has ended, by when it has listed what it will (they run
      // side by side). Every candidate the first run listed on any read counts.
      const [first, second] = await Promise.all([realRun(t), t.setup.secondRealRun()]);
      if (first.reads.length === 0) return;
      const names = new Map<string, JsonValue | undefined>();
      for (const r of first.reads)
        for (const c of objects(r.run.candidates)) {
          const id = idKey(c.id);
          if (id !== undefined) names.set(id, c.name);
        }
      // One read usually; a few more while the second run is still running and shares no candidate yet.
      let read: Read | undefined;
      let common: JsonObject[] = [];
      let readsOfSecond = 0;
      for (let n = 1; n <= SECOND_RUN_READS; n++) {
        readsOfSecond = n;
        read = await readAgain(t, second.runId, `read the short real run (#${n})`);
        if (!read) return;
        common = objects(read.run.candidates).filter((c) => names.has(idKey(c.id) ?? ''));
        if (
          common.length > 0 ||
          read.run.status === 'completed' ||
          read.run.status === 'failed' ||
          n === SECOND_RUN_READS
        )
          break;
        await t.sleep(SECOND_RUN_READ_EVERY_SPEC_MS);
      }
      if (!read) return;
      if (common.length === 0) {
        t.skip(
          `the shared real run and the second real run (a twin of its job, the same requirements, read ${readsOfSecond} time(s) until ${show(read.run.status)}) listed no candidate in common (${names.size} and ${objects(read.run.candidates).length} listed), so no pseudonym could be compared`,
          'inconclusive',
        );
        return;
      }
      for (const c of common) {
        const id = idKey(c.id)!;
        const before = names.get(id);
        if (
          !t.expect.that(
            c.name === before,
            {
              message: `candidate ${id} is named ${show(c.name)} in the second real run and ${show(before)} in the first; the sandbox's pseudonym is stable per candidate ("Candidate XXXX"), so a candidate listed by two runs carries the same one`,
              spec: S.sandbox,
              expected: show(before),
              received: show(c.name),
            },
            read.res,
          )
        )
          return;
      }
    },
  },
  {
    id: 'sandbox.candidate-name-masked',
    title:
      'In the sandbox every real-run candidate is named "Candidate XXXX" (4 hex digits), the same on every read (unless --real-names-enabled)',
    suite: 'sandbox',
    evidence: 'provoked',
    spec: [S.sandbox, S.candidate],
    needs: ['sandbox', 'org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const v = await realRun(t);
      // "Real names: shown only after a data-processing agreement is signed and the service operator
      // enables it for the partner": only the operator knows, so the user says so (--real-names-enabled).
      // Names are then opaque strings; contact identifiers stay masked regardless
      // (sandbox.contact-identifiers-masked judges them either way).
      const realNames = t.inputs.realNamesEnabled === true;
      if (!v.reads.some((r) => objects(r.run.candidates).length > 0)) {
        t.skip('the shared real run listed no candidate on any read, so no name could be judged', 'inconclusive');
        return;
      }
      const names = new Map<string, string>();
      eachRead(v.reads, (r) => {
        for (const c of objects(r.run.candidates)) {
          const id = idKey(c.id) ?? show(c.id);
          const ok = realNames
            ? t.expect.that(
                typeof c.name === 'string',
                {
                  message: `candidate ${id} on ${where(r)} has name ${show(c.name)}; the name is an opaque string (real names are enabled: --real-names-enabled)`,
                  spec: S.candidate,
                  expected: 'a string',
                  received: show(c.name),
                },
                r.res,
              )
            : t.expect.that(
                typeof c.name === 'string' && /^Candidate [0-9A-Fa-f]{4}$/.test(c.name),
                {
                  message: `candidate ${id} on ${where(r)} is named ${show(c.name)}; the sandbox masks names as "Candidate XXXX" with four hex digits, unless the operator enabled real names for the partner after a data-processing agreement (then certify with --real-names-enabled)`,
                  spec: S.sandbox,
                  expected: 'Candidate XXXX',
                  received: show(c.name),
                },
                r.res,
              );
          if (!ok) return false;
          if (realNames) continue;
          const before = names.get(id);
          if (
            before !== undefined &&
            !t.expect.equal(
              c.name,
              before,
              `name of candidate ${id} on ${where(r)} (earlier reads: ${before})`,
              S.sandbox,
              r.res,
            )
          )
            return false;
          names.set(id, c.name as string);
        }
        return true;
      });
    },
  },
  {
    id: 'sandbox.evidence-pseudonym-is-the-name',
    title: "In the sandbox a pseudonym inside a candidate's evidence is that candidate's own masked name",
    suite: 'sandbox',
    evidence: 'conditional',
    notApplicableWhen: 'no candidate of the shared real run carries a masked name with evidence to compare it with',
    spec: [S.sandbox, S.candidateRequirement],
    needs: ['sandbox', 'org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const v = await realRun(t);
      // Only a masked name can be judged: the real one is not shown. Where evidence names the candidate,
      // the name and each part of it are replaced by the same pseudonym as the name field.
      const masked = (c: JsonObject): boolean =>
        typeof c.name === 'string' && /^Candidate [0-9A-Fa-f]{4}$/.test(c.name);
      if (!v.reads.some((r) => objects(r.run.candidates).some(masked))) {
        if (t.inputs.realNamesEnabled === true) {
          t.skip(
            'real names are enabled (--real-names-enabled) and no candidate of the shared real run carries a masked name, so there is no pseudonym to compare',
            'not-applicable',
          );
        } else {
          // An unmasked name is sandbox.candidate-name-masked's finding.
          t.skip(
            'no candidate of the shared real run carries a masked name "Candidate XXXX", so no pseudonym could be compared',
            'inconclusive',
          );
        }
        return;
      }
      eachRead(v.reads, (r) => {
        for (const c of objects(r.run.candidates)) {
          if (!masked(c)) continue; // sandbox.candidate-name-masked's finding
          const name = c.name as string;
          for (const q of objects(c.requirements)) {
            if (typeof q.evidence !== 'string') continue;
            const other = [...q.evidence.matchAll(/Candidate [0-9A-Fa-f]{4}(?![0-9A-Za-z])/g)]
              .map((m) => m[0])
              .find((m) => m !== name);
            const ok = t.expect.that(
              other === undefined,
              {
                message: `candidate ${idKey(c.id) ?? show(c.id)} (named ${name}) has evidence naming ${show(other)} on ${where(r)}: ${show(q.evidence.slice(0, 160))}; inside evidence the candidate's name and each part of it are replaced by the same pseudonym`,
                spec: S.sandbox,
                expected: name,
                received: other,
              },
              r.res,
            );
            if (!ok) return false;
          }
        }
        return true;
      });
    },
  },
  {
    id: 'sandbox.contact-identifiers-masked',
    title: 'In the sandbox no e-mail, URL or phone number is left in evidence, title, company or location',
    suite: 'sandbox',
    evidence: 'provoked',
    spec: [S.sandbox],
    needs: ['sandbox', 'org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const v = await realRun(t);
      eachRead(v.reads, (r) => {
        // Each field judged as it is met: a list of every field's pointer first was three million
        // strings against a hostile read of a million candidates.
        const judge = (at: () => string, value: JsonValue | undefined): boolean => {
          if (typeof value !== 'string') return true;
          const found = exposedContact(value);
          return t.expect.that(
            found === undefined,
            {
              message: `${where(r)}: ${at()} still shows ${show(found)}; the sandbox replaces e-mails, URLs and phone numbers with [email|link|phone hidden in sandbox]`,
              spec: S.sandbox,
              expected: 'no contact identifier',
              received: value,
              pointer: at(),
            },
            r.res,
          );
        };
        for (const [ci, c] of objects(r.run.candidates).entries()) {
          for (const field of ['title', 'company', 'location'] as const)
            if (!judge(() => `/candidates/${ci}/${field}`, c[field])) return false;
          for (const [qi, q] of objects(c.requirements).entries())
            if (!judge(() => `/candidates/${ci}/requirements/${qi}/evidence`, q.evidence)) return false;
        }
        return true;
      });
    },
  },
];
