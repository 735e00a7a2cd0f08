// The run as the API shows it: the engine's or fixture's snapshot, masked in the sandbox, rendered in a language.
import {
  maskCandidate,
  renderNotice,
  type EngineCandidate,
  type EngineNotice,
  type EngineSnapshot,
} from './collaborators.js';
import type { AppContext } from './context.js';
import { fixtureSnapshot } from './fixtures/definitions.js';
import { int64 } from './json.js';
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
    // Changes the fixture run's stored definition: one candidate more than its target.
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
  // names as they are, and still hides every contact identifier ("contact identifiers stay masked regardless").
  const rules = app.config.variants.has('sandbox.real-names-enabled')
    ? { ...app.config.masking, names: false }
    : app.config.masking;
  return {
    snapshot: { ...snap, candidates: snap.candidates.map((c) => maskCandidate(c, { rules, runId: run.id })) },
    extraFields: false,
  };
}

function renderNoticeItem(n: EngineNotice, lang: Lang, faults: FaultSet, extra: boolean): Record<string, unknown> {
  const { title, body } = renderNotice(n, lang, { faults });
  const out: Record<string, unknown> = { code: n.code, severity: n.severity, slot: n.slot, title, body };
  if (n.ref) {
    const ref: Record<string, unknown> = {};
    if (n.ref.requirement_index !== undefined) ref.requirement_index = n.ref.requirement_index;
    if (n.ref.candidate_id !== undefined) ref.candidate_id = int64(n.ref.candidate_id);
    out.ref = ref;
  }
  if (extra) out.zz_extra_notice = { probe: true };
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

/** Terminal reads served per real run: faults that misbehave only after a run was seen finished need it. */
const terminalReads = new WeakMap<Run, number>();

function countTerminalRead(run: Run, status: string): number {
  if (status === 'running') return 0;
  const before = terminalReads.get(run) ?? 0;
  terminalReads.set(run, before + 1);
  return before;
}

/** Whether the organization's stored reveals show the candidate revealed. */
function contactRevealed(app: AppContext, run: Run, org: Organization, id: bigint): boolean {
  const faults = app.config.faults;
  // Reads other stored reveals: only one made in this very run counts, not the organization's.
  if (faults.has('reveal.contact-state-per-run')) return run.revealEvents.has(id);
  // Reads other stored reveals: any organization's reveal counts, not only this one's.
  if (faults.has('isolation.reveal-state-shared-across-orgs'))
    return [...app.store.organizations.values()].some((o) => o.revealed.has(id));
  return org.revealed.has(id);
}

/** One candidate of the Run body; records its quoted price (production reveals charge the latest quote). */
function renderCandidate(
  app: AppContext,
  view: { run: Run; org: Organization; extra: boolean; priceOverride: number | undefined },
  c: EngineCandidate,
  rederived: EngineCandidate['requirements'] | undefined,
): Record<string, unknown> {
  const { run, extra } = view;
  const price = view.priceOverride ?? c.priceCredits;
  run.quotedPrices.set(c.id, price);
  const out: Record<string, unknown> = {
    id: int64(c.id),
    name: c.name,
    title: c.title,
    company: c.company,
    location: c.location,
    verdict: c.verdict,
    requirements: (rederived ? withRederived(c.requirements, rederived) : c.requirements).map((r) => {
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
    contact_state: contactRevealed(app, run, view.org, c.id) ? 'revealed' : 'locked',
    reveal_price_credits: price,
  };
  if (extra) out.zz_extra_candidate = { probe: 1 };
  return out;
}

/** The run's notices rendered in `lang`, with their refs where this run's notices carry them. */
function renderNotices(app: AppContext, run: Run, state: RunState, lang: Lang): unknown[] {
  return state.snapshot.notices
    .map((n): EngineNotice => {
      if (keepsRefs(app, run)) return n;
      const { ref: _ref, ...rest } = n;
      return rest;
    })
    .map((n) => renderNoticeItem(n, lang, app.config.faults, state.extraFields));
}

/** The notices the conformant variants add to a run read: codes a v1 client does not know yet, quoted places. */
function variantNotices(app: AppContext, run: Run, lang: Lang): Record<string, unknown>[] {
  const variants = app.config.variants;
  const out: Record<string, unknown>[] = [];
  // Variant additive.notice-code: "new codes appear without warning".
  // Real runs only: a fixture's notices are fixed by its row of the fixture table.
  if (!run.fixture && variants.has('additive.notice-code')) out.push(VARIANT_NOTICE[lang]);
  // Variant runs-read.english-notice-quotes-hebrew: an English notice quoting places as written, in Hebrew.
  if (!run.fixture && variants.has('runs-read.english-notice-quotes-hebrew')) out.push(QUOTING_NOTICE[lang]);
  // Variant fixtures.notices-all-new-code: cert-notices-all shows a tenth code, one v1 clients do not know yet.
  if (run.fixture === 'cert-notices-all' && variants.has('fixtures.notices-all-new-code'))
    out.push(VARIANT_NOTICE[lang]);
  return out;
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
  const { snapshot, extraFields: extra } = state;
  const terminalReadsBefore = run.fixture ? 0 : countTerminalRead(run, snapshot.status);
  // Changes the stored quotes: once a real run was seen finished, its first candidate is neither listed nor quoted.
  const kept =
    terminalReadsBefore > 0 && app.config.faults.has('runs-read.candidate-dropped-after-end')
      ? snapshot.candidates.slice(1)
      : snapshot.candidates;
  // Variant fixtures.highest-id-first: a fixture's candidates in descending id order (display order is open).
  const listed = run.fixture && app.config.variants.has('fixtures.highest-id-first') ? [...kept].reverse() : kept;
  // The fault jobs.run-rederives-current-description: requirements derived again from the job as it is now.
  const rederived = rederivedRequirements(app, run);
  const view = { run, org, extra, priceOverride };
  const candidates = listed.map((c) => renderCandidate(app, view, c, rederived));
  const p = snapshot.progress;
  const progress: Record<string, unknown> = { confirmed: p.confirmed, target: p.target, screened: p.screened };
  if (extra) progress.zz_extra_progress = 7;
  const rendered: Record<string, unknown> = {
    run_id: run.id,
    status: runStatus(app, run, snapshot),
    progress,
    notices: renderNotices(app, run, state, lang),
    candidates,
  };
  // Variant fixtures.name-on-start-only: "Fixture responses carry sandbox: {fixture}" read as the start's
  // response only (POST /runs names it for the 202; the Run resource does not list it).
  if (run.fixture && !app.config.variants.has('fixtures.name-on-start-only'))
    rendered.sandbox = { fixture: run.fixture };
  if (extra) {
    rendered.zz_extra_top_level = 'clients must ignore this';
    rendered.zz_future_object = { nested: { deeper: [1, 2, 3] }, flag: true };
  }
  const body = app.points.runView(rendered, {
    runId: run.id,
    terminalReadsBefore,
    noticesIn: (other) => renderNotices(app, run, state, other),
    ...(run.fixture ? { fixture: run.fixture } : {}),
  });
  // The variants add to the list as the run view left it.
  if (Array.isArray(body.notices)) body.notices.push(...variantNotices(app, run, lang));
  return body;
}
