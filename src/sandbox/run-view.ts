// The run as the API shows it: the engine's or fixture's snapshot, masked in the sandbox, rendered in a language.
import { maskCandidate, renderNotice, type EngineNotice, type EngineSnapshot } from './collaborators.js';
import type { AppContext } from './context.js';
import { fixtureSnapshot } from './fixtures/definitions.js';
import { int64, RawNumber } from './json.js';
import type { Lang } from './messages.js';
import type { Organization, Run } from './store.js';
import type { FaultSet } from './faults/index.js';
import { rederivedRequirements, withRederived } from './rederived-requirements.js';

export interface RunState {
  snapshot: EngineSnapshot;
  extraFields: boolean;
}

/** The run as of now; undefined only if the engine lost it (treated as not found). */
export function currentState(app: AppContext, run: Run, lang: Lang): RunState | undefined {
  const now = app.now();
  if (run.fixture) {
    const extra = app.config.faults.has('runs-read.more-than-target');
    return fixtureSnapshot(
      run.fixture,
      run.targetCount,
      run.createdAt,
      now,
      app.config.timeScale,
      lang,
      extra,
      app.config.faults,
    );
  }
  const snap = app.engine.snapshot(run.id, now);
  if (!snap) return undefined;
  if (app.config.mode !== 'sandbox') return { snapshot: snap, extraFields: false };
  // Variant sandbox.real-names-enabled: the operator's switch (after a data-processing agreement) shows
  // names as they are; masking then keeps names the way the name-not-masked fault does, and still hides
  // every contact identifier ("contact identifiers stay masked regardless").
  const masking = app.config.variants.has('sandbox.real-names-enabled')
    ? new Set([...app.config.faults, 'sandbox.name-not-masked' as const])
    : app.config.faults;
  return {
    snapshot: { ...snap, candidates: snap.candidates.map((c) => maskCandidate(c, { faults: masking, runId: run.id })) },
    extraFields: false,
  };
}

function renderNoticeItem(n: EngineNotice, lang: Lang, faults: FaultSet, extra: boolean): Record<string, unknown> {
  const { title, body } = renderNotice(n, lang, { faults });
  const severity =
    n.code === 'function_error' && faults.has('runs-read.function-error-not-blocking') ? 'warning' : n.severity;
  const out: Record<string, unknown> = { code: n.code, severity, slot: n.slot, title, body };
  if (n.ref && !faults.has('runs-read.notice-without-ref')) {
    const ref: Record<string, unknown> = {};
    if (n.ref.requirement_index !== undefined) ref.requirement_index = n.ref.requirement_index;
    if (n.ref.candidate_id !== undefined) ref.candidate_id = int64(n.ref.candidate_id);
    out.ref = ref;
  }
  if (extra && !faults.has('fixtures.extra-fields-missing-on-notices')) out.zz_extra_notice = { probe: true };
  return out;
}

const VARIANT_NOTICE: Record<Lang, Record<string, unknown>> = {
  en: {
    code: 'zz_variant_notice',
    severity: 'info',
    slot: 'above_list',
    title: 'A newer notice',
    body: 'A notice code this client does not know yet.',
  },
  he: {
    code: 'zz_variant_notice',
    severity: 'info',
    slot: 'above_list',
    title: 'הודעה חדשה',
    body: 'קוד הודעה שהלקוח עדיין אינו מכיר.',
  },
};

const QUOTING_NOTICE: Record<Lang, Record<string, unknown>> = {
  en: {
    code: 'location_relaxed',
    severity: 'info',
    slot: 'above_list',
    title: 'Nearby',
    body: 'Also in "תל אביב-יפו, רמת גן, גבעתיים, בני ברק וחולון"',
  },
  he: {
    code: 'location_relaxed',
    severity: 'info',
    slot: 'above_list',
    title: 'באזור',
    body: 'חיפשנו גם ב"תל אביב-יפו, רמת גן, גבעתיים, בני ברק וחולון"',
  },
};

/**
 * Variant additive.run-status: a running real run reads `searching`, a status v1 does
 * not name ("any other value is treated as running"; Versioning 3: unknown enumerations fall back).
 */
function runStatus(app: AppContext, run: Run, snapshot: EngineSnapshot): string {
  if (app.config.variants.has('additive.run-status') && !run.fixture && snapshot.status === 'running')
    return 'searching';
  return snapshot.status;
}

/**
 * Whether this run's notices carry their refs. `ref` is "Required: no": variant
 * fixtures.notices-all-without-refs drops them on cert-notices-all (whose row states none), variant
 * notices.ref-only-where-stated everywhere but cert-notice-unknown (whose row states them).
 */
function keepsRefs(app: AppContext, run: Run): boolean {
  if (app.config.variants.has('notices.ref-only-where-stated')) return run.fixture === 'cert-notice-unknown';
  return run.fixture !== 'cert-notices-all' || !app.config.variants.has('fixtures.notices-all-without-refs');
}

/** A fixture name that is not this run's (fault fixtures.read-names-other-fixture). */
function otherFixture(name: string): string {
  return name === 'cert-empty' ? 'cert-failed' : 'cert-empty';
}

/** Terminal reads served per real run: faults that misbehave only after a run was seen finished need it. */
const terminalReads = new WeakMap<Run, number>();

function countTerminalRead(run: Run, status: string): number {
  if (status === 'running') return 0;
  const before = terminalReads.get(run) ?? 0;
  terminalReads.set(run, before + 1);
  return before;
}

function candidateId(id: bigint, faults: FaultSet): unknown {
  if (faults.has('runs-read.candidate-id-string')) return id.toString();
  if (faults.has('runs-read.candidate-id-float')) return new RawNumber(`${id}.0`);
  return int64(id);
}

/** Renders the Run body and records the quoted prices (production reveals charge the latest quote). */
export function renderRun(
  app: AppContext,
  run: Run,
  org: Organization,
  state: RunState,
  lang: Lang,
  priceOverride: number | undefined,
): Record<string, unknown> {
  const faults = app.config.faults;
  const { snapshot, extraFields: extra } = state;
  const terminalBefore = run.fixture ? 0 : countTerminalRead(run, snapshot.status);
  const seenFinished = terminalBefore > 0;
  const kept =
    seenFinished && faults.has('runs-read.candidate-dropped-after-end')
      ? snapshot.candidates.slice(1)
      : snapshot.candidates;
  // Variant fixtures.highest-id-first: a fixture's candidates in descending id order (display order is open).
  const listed = run.fixture && app.config.variants.has('fixtures.highest-id-first') ? [...kept].reverse() : kept;
  // The fault jobs.run-rederives-current-description: requirements derived again from the job as it is now.
  const rederived = rederivedRequirements(app, run);
  const candidates = listed.map((c) => {
    const price = priceOverride ?? c.priceCredits;
    run.quotedPrices.set(c.id, price);
    const out: Record<string, unknown> = {
      id: candidateId(c.id, faults),
      // The fault: a fixture name that depends on the run, not only on the candidate.
      name: run.fixture && faults.has('sandbox.fixture-names-per-run') ? `${c.name} ${run.id.slice(0, 4)}` : c.name,
      title: c.title,
      company: c.company,
      location: c.location,
      verdict: !run.fixture && faults.has('runs-read.verdict-out-of-enum') ? 'fair' : c.verdict,
      requirements: (run.fixture && faults.has('fixtures.candidate-requirements-musts-only')
        ? c.requirements.filter((r) => r.kind === 'must')
        : rederived
          ? withRederived(c.requirements, rederived)
          : c.requirements
      ).map((r) => {
        const item: Record<string, unknown> = {
          index: r.index,
          text: r.text,
          kind: r.kind,
          met: r.met,
          evidence: r.evidence,
        };
        if (extra) item.zz_extra_requirement = 'ignore-me';
        return item;
      }),
      // The fault isolation.reveal-state-shared-across-orgs: any organization's reveal counts, not only this one's.
      // The fault reveal.contact-state-per-run: only a reveal made in this run counts, not the organization's.
      contact_state:
        ((faults.has('reveal.contact-state-per-run') ? run.revealEvents.has(c.id) : org.revealed.has(c.id)) ||
          (faults.has('isolation.reveal-state-shared-across-orgs') &&
            [...app.store.organizations.values()].some((o) => o.revealed.has(c.id)))) &&
        !faults.has('reveal.contact-state-stays-locked')
          ? 'revealed'
          : 'locked',
      reveal_price_credits: price,
    };
    if (extra) out.zz_extra_candidate = { probe: 1 };
    return out;
  });
  const p = snapshot.progress;
  // The fault: once a real run was seen finished, screened counts only the confirmed candidates (it drops).
  // The fault runs-read.screened-down-every-other-read: after the end, one above the count on every other
  // read, so it goes down on the next one; no single later read shows it against the reads before the end.
  const screened =
    seenFinished && faults.has('runs-read.screened-drops-after-end')
      ? p.confirmed
      : seenFinished && faults.has('runs-read.screened-down-every-other-read') && terminalBefore % 2 === 1
        ? p.screened + 1
        : p.screened;
  const progress: Record<string, unknown> = { confirmed: p.confirmed, target: p.target, screened };
  if (extra) progress.zz_extra_progress = 7;
  const body: Record<string, unknown> = {
    run_id: run.id,
    status:
      (seenFinished && faults.has('runs-read.terminal-reverts-to-running')) ||
      (!run.fixture && faults.has('runs-read.real-run-never-ends'))
        ? 'running'
        : runStatus(app, run, snapshot),
    progress,
    // The fault: a failed run (real or fixture) is shown without the notice that explains it.
    notices: (snapshot.status === 'failed' && faults.has('runs-read.failed-run-without-notice') ? [] : snapshot.notices)
      .map((n): EngineNotice => {
        if (keepsRefs(app, run)) return n;
        const { ref: _ref, ...rest } = n;
        return rest;
      })
      .map((n) =>
        renderNoticeItem(n, run.fixture && faults.has('fixtures.notices-ignore-english') ? 'he' : lang, faults, extra),
      ),
    candidates,
  };
  // The variants below add to the list just built.
  const notices: unknown[] = Array.isArray(body.notices) ? body.notices : [];
  // Variant additive.notice-code: "new codes appear without warning".
  // Real runs only: a fixture's notices are fixed by its row of the fixture table.
  if (!run.fixture && app.config.variants.has('additive.notice-code')) notices.push(VARIANT_NOTICE[lang]);
  // Variant runs-read.english-notice-quotes-hebrew: an English notice quoting places as written, in Hebrew.
  if (!run.fixture && app.config.variants.has('runs-read.english-notice-quotes-hebrew'))
    notices.push(QUOTING_NOTICE[lang]);
  // Variant fixtures.notices-all-new-code: cert-notices-all shows a tenth code, one v1 clients do not know yet.
  if (run.fixture === 'cert-notices-all' && app.config.variants.has('fixtures.notices-all-new-code'))
    notices.push(VARIANT_NOTICE[lang]);
  // Variant fixtures.name-on-start-only: "Fixture responses carry sandbox: {fixture}" read as the start's
  // response only (POST /runs names it for the 202; the Run resource does not list it).
  if (run.fixture && !app.config.variants.has('fixtures.name-on-start-only')) {
    body.sandbox = {
      fixture: faults.has('fixtures.read-names-other-fixture') ? otherFixture(run.fixture) : run.fixture,
    };
  }
  if (extra) {
    body.zz_extra_top_level = 'clients must ignore this';
    body.zz_future_object = { nested: { deeper: [1, 2, 3] }, flag: true };
  }
  return body;
}
