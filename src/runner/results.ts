// The result model every reporter reads. It is the shape of results.json (schemas/results.schema.json
// describes it); keep the two in step.

import type { RecordedExchange } from '../http/recorded-exchange.js';
import type { Evidence } from './evidence.js';
import type { ScannedPrefix } from '../secret-shapes.js';

export type { RecordedExchange, RecordedMessage } from '../http/recorded-exchange.js';

/**
 * `warning`: the check held on every MUST, but saw something the spec states without a MUST or whose
 * text reads two ways; it passes the run unless --strict (as a skip does).
 */
export type CheckStatus = 'passed' | 'failed' | 'skipped' | 'error' | 'warning';

/**
 * Why a check was skipped; the kind decides what the skip does to the verdict. `not-applicable`: the
 * environment or mode has no such thing (certified regardless); `needs-input`: a flag or input would run
 * it; `set-up`: an operator input was given but does not work (no webhook registered, a listener the
 * target's deliveries do not reach): a set-up finding, never the target's failure; `not-exercised`:
 * partner traffic never exercised the rule; `inconclusive`: the target's behaviour left nothing to
 * judge (these four make the verdict `incomplete`); `deselected`: --suite/--grep left it out;
 * `interrupted`: SIGINT/SIGTERM came first.
 */
export type SkipKind =
  'not-applicable' | 'needs-input' | 'set-up' | 'not-exercised' | 'inconclusive' | 'deselected' | 'interrupted';

/** Skips that leave the certification incomplete: something could have run it. */
const INCOMPLETE_SKIPS: ReadonlySet<SkipKind> = new Set(['needs-input', 'set-up', 'not-exercised', 'inconclusive']);

/** How much an observation weighs: a failure (the default) fails the check; a warning only warns. */
type Severity = 'failure' | 'warning';

/** One thing a check saw that the spec does not allow (or, severity `warning`, may not mean). */
export interface Observation {
  /** Absent means `failure`. Any failure wins over any number of warnings. */
  severity?: Severity;
  /** One sentence a person can act on: what is wrong, in the spec's words. */
  message: string;
  /** Spec section the observation enforces, e.g. "Endpoints › POST /runs (start a run)". */
  spec: string;
  expected?: string;
  received?: string;
  /** JSON pointer into the response body, where one applies. */
  pointer?: string;
  /** Index into the check's `exchanges` of the exchange that proves it. */
  exchange?: number;
}

/**
 * An exchange as its check keeps it. `index` is its position in the check's `exchanges`, the one
 * number an observation's `exchange` and every report use; whoever keeps a check's exchanges gives it
 * (check-record.ts for the checks of `run`, the partner's judge, the receiver's checks).
 */
export interface CheckExchange extends RecordedExchange {
  index: number;
}

export interface CheckResult {
  id: string;
  title: string;
  suite: string;
  spec: string[];
  status: CheckStatus;
  /**
   * passed: empty or a note; failed: the first failure's message; warning: the first warning's message;
   * skipped: the reason; error: the engine error.
   */
  message: string;
  durationMs: number;
  /**
   * When the check started on the certification's clock: ms after the RunResult's `startedAt` (the
   * timeline of report.html). Absent for a check that never ran (a skip settled before the checks
   * started) and in results written before it was recorded.
   */
  startedMs?: number;
  observations: Observation[];
  exchanges: CheckExchange[];
  /** Engine error detail (status `error` only). */
  error?: { name: string; message: string; stack?: string };
  /** Status `skipped` only: why (absent in results written before skip kinds: read as `needs-input`). */
  skipKind?: SkipKind;
  /** Skip kind `needs-input` only: what would run it, short ("--expired-code", "2 more activation codes"). */
  unlock?: string;
  /** Spec guidance, not a duty: the check can only warn, and its skip never makes a verdict incomplete. */
  advisory?: true;
  /** How the check gets its evidence (runner/evidence.ts); absent in results written before it was declared. */
  evidence?: Evidence;
  /**
   * Status `failed`, or `skipped` of a kind that leaves the run incomplete: the operator's baseline
   * accepts this for now (it does not fail the run, nor leave it incomplete).
   */
  expected?: ExpectedFailure;
}

/** A failure listed in the `--baseline` file: why it is accepted and until when. */
interface ExpectedFailure {
  reason: string;
  /** YYYY-MM-DD, the last day the entry is honoured. */
  until: string;
}

export interface RunSummary {
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  error: number;
  warning: number;
  /** Failed checks the baseline accepts (their status stays `failed`); not counted in `failed`. */
  expected: number;
}

/** Which certifying command produced a RunResult, so that `svc-certify report` can merge several. */
export type CertificationKind = 'run' | 'partner' | 'receiver' | 'scan' | 'dossier';

/** Default human titles, one per certification (a section heading in a merged report). */
export const CERTIFICATION_TITLES: Record<CertificationKind, string> = {
  run: 'Service API',
  partner: 'Partner client',
  receiver: 'Partner webhook receiver',
  scan: 'Partner bundles and traffic',
  dossier: 'Certification dossier',
};

/**
 * certified: the whole catalogue ran, nothing failed, skips only not-applicable, no baseline entry
 * applied; passed-not-certified: nothing failed, but a selection (--suite/--grep), the gate profile
 * (--gate) or accepted baseline entries left part of the catalogue unjudged (`uncertifiedBy` says which);
 * not-certified: a failure or engine error (with --strict also a warning or an incomplete run);
 * incomplete: nothing failed but inputs or traffic were missing; interrupted: a signal ended the
 * certification before every check did.
 */
export type Verdict = 'certified' | 'passed-not-certified' | 'not-certified' | 'incomplete' | 'interrupted';

/**
 * What results.json may hold as `verdict`: today's verdicts, and `passed-selection`, written before
 * every "passed, not a certification" became one verdict (read as `passed-not-certified`).
 */
export type StoredVerdict = Verdict | 'passed-selection';

/** Why a run that passed is not a certification, each named in every report. */
export type UncertifiedBy = 'selection' | 'gate' | 'baseline';

/** A group of checks the gate profile leaves to a full certification, with why. */
export interface CertificationOnly {
  why: string;
  checks: string[];
}

/** What left a certification incomplete, grouped: "2 more activation codes unlock 9 checks". */
export interface MissingInput {
  /** The skip kind (needs-input, not-exercised, inconclusive). */
  kind: SkipKind;
  /** What to supply or do; for needs-input the unlock, else the reason. */
  what: string;
  /** The check ids it would run. */
  checks: string[];
}

/** A baseline entry that fails the run: the baseline only ever shrinks. */
export interface BaselineProblem {
  id: string;
  /** stale: the listed check passed; expired: past its `until`; unknown: no check of this certification has the id. */
  kind: 'stale' | 'expired' | 'unknown';
  /** What happened and what to do (remove or renew the entry). */
  message: string;
}

/** How the `--baseline` file was applied. */
interface BaselineOutcome {
  /** The file as the operator named it. */
  file: string;
  entries: number;
  /** Failed checks the baseline accepted. */
  expected: number;
  problems: BaselineProblem[];
}

export type Environment = 'sandbox' | 'production';

/** What told the environment apart (src/api-setup/environment-evidence.ts gathers it). */
export interface EnvironmentEvidence {
  /** What the header under test says (present → sandbox). */
  header: Environment;
  /** What the behaviour shows; undefined when the probes were not run or did not tell. */
  behaviour?: Environment;
  /** One line per signal, for reports: "POST /sandbox/webhooks/test answered 422 invalid_request: the route exists (sandbox)". */
  signals: string[];
}

export interface RunResult {
  certification: CertificationKind;
  /** Human title of the certification, e.g. "Service API". */
  title: string;
  tool: { name: 'svc-certify'; version: string };
  spec: { title: string; sha256: string };
  /** The resolved configuration in redacted form: the only form of it ever written anywhere. */
  config: Record<string, unknown>;
  target: {
    baseUrl: string;
    environment: 'sandbox' | 'production' | 'unknown';
    embedded: boolean;
    /** With --environment auto: the header's word, the behaviour's, and the signals behind them. */
    environmentEvidence?: EnvironmentEvidence;
  };
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  summary: RunSummary;
  /** Suites in display order. */
  suites: string[];
  /** Sorted by suite order, then id: never by completion order, so output is deterministic. */
  checks: CheckResult[];
  /** Request statistics of the whole certification. */
  stats?: RunStats;
  /** What the timeline of report.html draws besides the checks; absent in results written before it was recorded. */
  timeline?: RunTimeline;
  /** `run`: the generative exploration's seed (replay with --seed), its cap (--explore) and the requests it sent. */
  exploration?: { seed: number; cap: number; sent: number };
  /** Present when a `--baseline` file was given. */
  baseline?: BaselineOutcome;
  /** Decided once, when the reports are written (src/runner/verdict.ts); every reporter shows this one. */
  verdict?: StoredVerdict;
  /** Verdict `passed-not-certified`: what kept the passed run from being a certification. */
  uncertifiedBy?: UncertifiedBy[];
  /**
   * Present when the run used the gate profile (--gate): the checks only a full certification runs,
   * grouped by why (each is also a check `skipped` as deselected, its reason starting "certification only").
   */
  gate?: { certificationOnly: CertificationOnly[] };
  /** Verdict `incomplete` (and a --strict run made not-certified by it): what is missing and how to supply it. */
  missing?: MissingInput[];
  /**
   * What the certifier met past one of its own bounds and so did not judge or protect in full (a flood
   * past the requests a partner session records, org tokens past what the redaction takes as secrets):
   * shown with the verdict in every report, never silent.
   */
  notices?: Notice[];
  /** The signal that ended the certification before every check did. */
  interrupted?: { signal: 'SIGINT' | 'SIGTERM' };
  /** Present when --suite/--grep left checks out: how many of the catalogue were not run. */
  selection?: { suites: string[]; grep?: string; deselected: number };
  /** `svc-certify scan` only: where `spk_` / `sot_` was found (at most the first 12 characters of a key shown). */
  findings?: ScanFinding[];
  /**
   * `certification: 'dossier'` only (`svc-certify report` of several results): each certification
   * merged in, without its checks and findings, which are the top-level ones in the same order
   * (`checkCount` and `findingCount` of them each), so the originals can be rebuilt exactly.
   */
  parts?: DossierPart[];
}

/** The certification on its own clock (every time in ms after the RunResult's `startedAt`). */
/**
 * The request counters of a whole certification. The engine declares those of HTTP, its transport; the
 * API's own (the real runs started, the exploration's share) are declared into this interface by
 * src/api-setup/run-stats.ts, so results.json keeps one `stats` object and the engine names no notion
 * of the API.
 */
export interface RunStats {
  requests: number;
  /** Answers 429 the certifier caused. */
  rateLimited: number;
}

export interface RunTimeline {
  /** The rate window the requests are counted in: a minute of the spec's time (60 000 ms ÷ time scale). */
  windowMs: number;
  /** Requests sent in each window, the first window starting at `startedAt`. */
  requests: number[];
  /**
   * Webhook deliveries as they arrived: at the certifier's own receiver (`run`), or at the partner's
   * endpoint (`partner`); the first MAX_TIMELINE_DELIVERIES of them.
   */
  deliveries?: TimelineDelivery[];
  /** `partner`: the injections that fired, in order, each with the rule whose situation it arranges. */
  injections?: TimelineInjection[];
}

/** At most this many deliveries are kept for the timeline: a target that floods the receiver must not grow results.json. */
export const MAX_TIMELINE_DELIVERIES = 500;

export interface TimelineDelivery {
  /** The event type of the body (`run_completed`, …), '' when it has none. */
  event: string;
  eventId: string;
  /** 1 for the first delivery of an event id, 2 for its first retry, … */
  attempt: number;
  /**
   * When it was sent: the sender's start (`partner`), or the event's `occurred_at` (`run`: the service
   * sends no send time); absent when unknown.
   */
  sentMs?: number;
  receivedMs: number;
  /** The status it was answered with; 0 when no answer was given. */
  status: number;
}

export interface TimelineInjection {
  /** The injection point (src/partner/injection-points.ts). */
  id: string;
  atMs: number;
  /** The partner request it answered (its number in arrival order). */
  request: number;
  /** The rule whose situation the injection arranges. */
  rule: string;
}

/** One bound the certifier reached: a stable id and a sentence with the counts. */
export interface Notice {
  id: string;
  message: string;
}

export type DossierPart = Omit<RunResult, 'checks' | 'findings' | 'parts'> & {
  checkCount: number;
  findingCount: number;
};

/** One place a scanned file holds `spk_` or `sot_` (docs/scan-and-receiver.md). */
export interface ScanFinding {
  /** The check the finding fails, e.g. `scan.no-partner-key-string`. */
  check: string;
  /**
   * The string found (Authentication, rule 7), however it was written (`spk\u005f` is `spk_`); absent in
   * results written before findings named it.
   */
  prefix?: ScannedPrefix;
  file: string;
  /** 1-based, in the text named by `location` when it is set (a HAR part, a source map's source). */
  line: number;
  /** 1-based, in Unicode code points. */
  column: number;
  /** `partner-key` / `org-token`: a full key or token of the spec's format follows; `prefix`: only the string. */
  kind: 'partner-key' | 'org-token' | 'prefix' | 'not-scanned'; // not-scanned: the file could not be read within scan's bounds (excerpt says why)
  /** The part of the file: a HAR entry and part, a source map's source, a decompression; null for plain text. */
  location: string | null;
  /** Context before the match and at most the first 12 characters of the match. */
  excerpt: string;
}

/** The summary bucket of a check: a failure the baseline accepts counts as `expected`, not `failed`. */
function summaryKey(check: Pick<CheckResult, 'status' | 'expected'>): Exclude<keyof RunSummary, 'total'> {
  return check.status === 'failed' && check.expected ? 'expected' : check.status;
}

/** The kind of a skipped check; results written before kinds existed read as needs-input (the old meaning). */
export function skipKindOf(check: Pick<CheckResult, 'status' | 'skipKind'>): SkipKind | undefined {
  return check.status === 'skipped' ? (check.skipKind ?? 'needs-input') : undefined;
}

/** A skip that leaves the certification incomplete (not accepted by the baseline, not advisory). */
export function leavesIncomplete(check: Pick<CheckResult, 'status' | 'skipKind' | 'advisory' | 'expected'>): boolean {
  const kind = skipKindOf(check);
  return kind !== undefined && INCOMPLETE_SKIPS.has(kind) && check.advisory !== true && check.expected === undefined;
}

export function summarize(checks: readonly CheckResult[]): RunSummary {
  const s: RunSummary = { total: checks.length, passed: 0, failed: 0, skipped: 0, error: 0, warning: 0, expected: 0 };
  for (const c of checks) s[summaryKey(c)] += 1;
  return s;
}
