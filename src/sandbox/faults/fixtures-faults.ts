// The certification fixtures (Sandbox behaviour › Fixtures: cert-* job ids). Starts act at the refusal and
// answer points of routes/runs-start.ts, a fixture run's read at the runView point of run-view.ts; the tables
// are switched in fixtures/definitions.ts.
import { edited, withoutExtraFields } from './reshape.js';
import { ApiError } from '../api-error.js';
import { eachCandidate, eachNotice } from './run-view-edits.js';
import type { FaultDefinition } from './types.js';
import { FIXTURE_NAMES } from '../fixtures/fixture-names.js';
import { onAnswer, onRefusal } from './points.js';

/** A fault of every fixture start fails each fixture's start check. */
const startChecksBut = (first: string): string[] =>
  FIXTURE_NAMES.filter((f) => f !== first).map((f) => `fixtures.${f}.start-accepted-202`);
/** A fixture's table rule broken in every language fails its he and its en read alike. */
const read = (fixture: string): Pick<FaultDefinition, 'caughtBy' | 'alsoCaughtBy'> => ({
  caughtBy: `fixtures.${fixture}.read-matches-table`,
  alsoCaughtBy: [`fixtures.${fixture}.read-matches-table-en`],
});

export const fixturesFaults = [
  {
    id: 'fixtures.extra-fields-missing-on-reveal',
    area: 'fixtures',
    summary: '`cert-extra-fields` reveal response carries no unknown field',
    caughtBy: 'fixtures.cert-extra-fields.reveal-and-decisions-carry-extra-fields',
    acts: {
      answer: onAnswer('reveal', (r, f) => (f.fixture ? withoutExtraFields(r) : r)),
    },
  },
  {
    id: 'fixtures.any-acting-user',
    area: 'fixtures',
    summary: 'a fixture start by an acting user never registered is accepted instead of 404 `user_not_found`',
    caughtBy: 'fixtures.start-unregistered-user-404',
    acts: {
      refusal: onRefusal({ cause: 'unknown-user', route: 'runs-start' }, (e, f) => (f.fixture ? undefined : e)),
    },
  },
  {
    id: 'fixtures.target-limit-unenforced',
    area: 'fixtures',
    summary: 'a fixture start with target_count 21 is accepted; only real runs get 422 `sandbox_limit`',
    caughtBy: 'fixtures.target-count-21-sandbox-limit',
    acts: {
      refusal: onRefusal('sandbox-limit', (e, f) => (f.fixture ? undefined : e)),
    },
  },
  {
    id: 'fixtures.notices-ignore-english',
    area: 'fixtures',
    summary: 'fixture runs render their notices in Hebrew even when x-svc-lang: en is asked for',
    caughtBy: 'fixtures.cert-notices-all.read-matches-table-en',
    acts: {
      runView: (v, f) => (f.fixture ? { ...v, notices: f.noticesIn('he') } : v),
    },
  },
  {
    id: 'fixtures.extra-fields-missing-on-decisions',
    area: 'fixtures',
    summary: '`cert-extra-fields` decisions response carries no unknown field',
    caughtBy: 'fixtures.cert-extra-fields.reveal-and-decisions-carry-extra-fields',
    acts: {
      answer: onAnswer('decisions', (r, f) => (f.fixture ? withoutExtraFields(r) : r)),
    },
  },
  {
    id: 'fixtures.extra-fields-missing-on-start',
    area: 'fixtures',
    summary: '`cert-extra-fields` run start response carries no unknown top-level field (its requirements still do)',
    caughtBy: 'fixtures.cert-extra-fields.start-accepted-202',
    acts: {
      answer: onAnswer('runs-start', (r, f) => (f.fixture ? withoutExtraFields(r) : r)),
    },
  },
  {
    id: 'fixtures.names-not-localized',
    area: 'fixtures',
    summary: 'fixture candidate names stay English (`Test Candidate 01`) when read with `x-svc-lang: he`',
    caughtBy: 'fixtures.names-localized-he',
  },
  {
    id: 'fixtures.start-answered-200',
    area: 'fixtures',
    summary: 'a fixture run start answers 200 instead of 202',
    caughtBy: 'fixtures.cert-notices-all.start-accepted-202',
    alsoCaughtBy: startChecksBut('cert-notices-all'),
    acts: {
      answer: onAnswer('runs-start', (r, f) => (f.fixture ? { ...r, status: 200 } : r)),
    },
  },
  {
    id: 'fixtures.start-without-fixture-name',
    area: 'fixtures',
    summary: 'a fixture run start response lacks `sandbox: {fixture: <name>}`',
    caughtBy: 'fixtures.cert-slow.start-accepted-202',
    alsoCaughtBy: startChecksBut('cert-slow'),
    acts: {
      answer: onAnswer('runs-start', (r, f) =>
        f.fixture
          ? edited(r, (b) => {
              delete b.sandbox;
            })
          : r,
      ),
    },
  },
  {
    id: 'fixtures.notices-all-missing-paid-fallback',
    area: 'fixtures',
    summary: '`cert-notices-all` lacks the `paid_fallback` notice: eight of the nine v1 codes',
    ...read('cert-notices-all'),
  },
  {
    id: 'fixtures.notices-all-impossible-code',
    area: 'fixtures',
    summary:
      '`cert-notices-all` also shows `widen_hint`, a known code that cannot occur in v1: ten codes instead of the nine',
    ...read('cert-notices-all'),
  },
  {
    id: 'fixtures.notice-requirement-index-out-of-range',
    area: 'fixtures',
    summary:
      "`cert-notice-unknown`'s on_requirement probe notices point at `ref.requirement_index` 3, past the fixture's three requirements (0 to 2)",
    ...read('cert-notice-unknown'),
  },
  {
    id: 'fixtures.notice-unknown-without-unknown-slot',
    area: 'fixtures',
    summary: '`cert-notice-unknown` has no probe notice in the unknown slot `zz_unknown_slot`',
    ...read('cert-notice-unknown'),
  },
  {
    id: 'fixtures.empty-notice-outside-empty-state',
    area: 'fixtures',
    summary: '`cert-empty` puts its `location_relaxed` notice in `above_list` instead of `empty_state`',
    ...read('cert-empty'),
  },
  {
    id: 'fixtures.failed-reports-completed',
    area: 'fixtures',
    summary: '`cert-failed` reads as `completed` instead of `failed`',
    ...read('cert-failed'),
  },
  {
    id: 'fixtures.extra-fields-missing-on-notices',
    area: 'fixtures',
    summary: '`cert-extra-fields` notices carry no unknown field (top level, progress, candidates still do)',
    ...read('cert-extra-fields'),
    acts: {
      runView: (v) =>
        eachNotice(v, (n) => {
          delete n.zz_extra_notice;
        }),
    },
  },
  {
    id: 'fixtures.webhook-lists-more-than-three',
    area: 'fixtures',
    summary: "`cert-webhook` lists 5 candidates (within target_count), more than the table's 3",
    ...read('cert-webhook'),
  },
  {
    id: 'fixtures.slow-completes-at-once',
    area: 'fixtures',
    summary: '`cert-slow` is `completed` at once instead of running for 3 minutes',
    caughtBy: 'fixtures.cert-slow.runs-three-minutes-then-completes',
  },
  {
    id: 'fixtures.candidate-requirements-musts-only',
    area: 'fixtures',
    summary:
      "fixture candidates list only the `must` entries of the fixture's requirement list, not one per run requirement",
    caughtBy: 'fixtures.candidate-requirements-match-start',
    acts: {
      runView: (v, f) =>
        f.fixture
          ? eachCandidate(v, (c) => {
              c.requirements = (c.requirements as Array<{ kind: unknown }>).filter((r) => r.kind === 'must');
            })
          : v,
    },
  },
  {
    id: 'fixtures.submitted-requirements-used',
    area: 'fixtures',
    summary:
      "a fixture run start with valid submitted requirements returns them in its `202` instead of the fixture's fixed list",
    caughtBy: 'fixtures.submitted-requirements-not-used',
  },
  {
    id: 'fixtures.created-cert-job-runs',
    area: 'fixtures',
    summary:
      'a `cert-*` job created through POST /jobs that is no fixture starts a real run instead of `422 unknown_fixture` (the prefix is not reserved)',
    caughtBy: 'fixtures.cert-prefix-reserved',
  },
  {
    id: 'fixtures.unknown-fixture-as-job-not-found',
    area: 'fixtures',
    summary: 'an unknown `cert-*` job answers `404 job_not_found` instead of `422 unknown_fixture` with `fixtures`',
    caughtBy: 'fixtures.unknown-fixture-422',
    acts: {
      refusal: onRefusal('unknown-fixture', (e) => (e ? new ApiError(404, 'job_not_found') : e)),
    },
  },
  {
    // A read without the name is the conformant variant fixtures.name-on-start-only (a warning): the
    // spec's "Fixture responses carry…" reads two ways. A read naming another fixture is wrong either way.
    id: 'fixtures.read-names-other-fixture',
    area: 'fixtures',
    summary: 'a fixture run read names another fixture in `sandbox.fixture`',
    caughtBy: 'fixtures.cert-notices-all.read-matches-table',
    alsoCaughtBy: ['fixtures.cert-notices-all.read-matches-table-en'],
    acts: {
      runView: (v, f) =>
        f.fixture && v.sandbox
          ? { ...v, sandbox: { fixture: f.fixture === 'cert-empty' ? 'cert-failed' : 'cert-empty' } }
          : v,
    },
  },
] as const satisfies readonly FaultDefinition[];
