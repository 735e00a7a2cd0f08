// The endpoints the exploration sends generated requests to: how each is prepared, and the values of
// its path; its method, path, schemas and section are its row of the endpoint table.

import { ENDPOINTS as TABLE, pathOf, type ApiSchemaName, type ParamName } from '../../src/api/endpoints.js';
import type { JsonObject } from '../../src/json/lossless.js';
import type { CheckContext } from '../../src/api-setup/check.js';
import type { Need } from '../../src/api-setup/needs.js';
import type { SpecSection } from '../../src/spec/section-names.js';
import type { ExploreShape } from '../../src/schema/explore-cases.js';
import { requestFields } from '../../src/schema/request-fields.js';
import { roleField } from '../support/recruiters.js';
import { acceptedRunId } from '../support/runs.js';
import { FIRST_FIXTURE_CANDIDATE } from './common.js';
import { nothingSent, onExploreBudget } from './spare-budget.js';

/** Any fixture: it answers at once and never counts toward the daily run quota. */
const FIXTURE = 'cert-notices-all';

/** What an endpoint needs prepared once per check (a recruiter, a fixture run). */
export interface Prepared {
  user: string;
  role?: string;
  runId?: string;
}

/** The endpoints explored: every write of the table but the webhook test (a sandbox tool, not the API's data). */
type Explored = 'users' | 'jobs' | 'runs-start' | 'decisions' | 'reveal' | 'redeem';

export interface Endpoint {
  name: Explored;
  request: ApiSchemaName;
  response: ApiSchemaName;
  spec: SpecSection;
  needs: Need[];
  shape: ExploreShape;
  prepare(t: CheckContext): Promise<Prepared | undefined>;
  /** A valid body; `fresh` is an identifier never sent before. */
  base(t: CheckContext, p: Prepared, fresh: string): JsonObject;
  path(p: Prepared): string;
  /** Sent with the partner key only (redeem takes no org token). */
  partnerOnly: boolean;
  /** No generated body can succeed (redeem names a code never issued): no success body to judge. */
  neverSucceeds?: boolean;
}

/**
 * A code no service can have issued: `0` is outside the code alphabet (ABCDEFGHJKMNPQRSTUVWXYZ23456789),
 * so every generated redeem is refused and no activation code is ever spent by the exploration.
 */
const NEVER_ISSUED_CODE = 'SVC-0000-0000';

/** A recruiter of the organization, and the role it was accepted with (role values are open). */
async function recruiter(t: CheckContext): Promise<Prepared> {
  const { externalId, role } = await t.setup.user();
  return { user: externalId, ...(role !== undefined ? { role } : {}) };
}

/**
 * A fixture run of this check's own, so its decisions meet no other check's entries; started on spare
 * budget like the cases (undefined, nothing judged, when none came: the check then skips).
 */
async function withFixtureRun(t: CheckContext): Promise<Prepared | undefined> {
  // Prepared only for a check that explores: exploreCheck skips before preparing when --explore is 0.
  const ex = t.inputs.explore;
  if (!ex) return undefined;
  const p = await recruiter(t);
  const body = { job_external_id: FIXTURE, acting_user_external_id: p.user, target_count: 6 };
  const started = await onExploreBudget(t, ex, `start a ${FIXTURE} run to explore on`, (opts) =>
    t.setup.startRun(body, opts),
  );
  if (started === 'unsent') {
    nothingSent(t, ex);
    return undefined;
  }
  const runId = acceptedRunId(t, started, `the ${FIXTURE} start`);
  return runId === undefined ? undefined : { ...p, runId };
}

/** What exploring an endpoint takes beyond its row of the table: the values of its path's parameters. */
type How<N extends Explored> = Omit<Endpoint, 'name' | 'request' | 'response' | 'spec' | 'path' | 'partnerOnly'> & {
  params(p: Prepared): { [K in ParamName<N>]: string | bigint };
};

function explored<N extends Explored>(name: N, how: How<N>): Endpoint {
  const row = TABLE[name as Explored];
  const { params, ...rest } = how;
  return {
    name,
    request: row.request,
    response: row.response,
    spec: row.spec,
    ...rest,
    path: (p) => pathOf(name, params(p)),
    partnerOnly: !row.orgToken,
  };
}

export const ENDPOINTS: Endpoint[] = [
  explored('users', {
    needs: ['org'],
    // The User table states no field required; the upsert key is what the request cannot do without.
    shape: {
      fields: requestFields('user-request'),
      requiredStated: ['external_id'],
      text: ['full_name', 'email', 'role'],
      ids: ['external_id'],
    },
    prepare: recruiter,
    base: (_t, p, fresh) => ({
      external_id: fresh,
      email: `${fresh}@example.com`,
      full_name: 'Noa Cohen',
      ...roleField(p.role),
    }),
    params: () => ({}),
  }),
  explored('jobs', {
    needs: ['org'],
    shape: {
      fields: requestFields('job-request'),
      requiredStated: ['external_id', 'title', 'description_text', 'location_text'],
      text: ['title', 'description_text', 'location_text'],
      ids: ['external_id'],
    },
    prepare: recruiter,
    base: (_t, _p, fresh) => ({
      external_id: fresh,
      title: 'Data Analyst',
      description_text:
        'We are hiring a data analyst to turn product and sales data into decisions. You will write SQL, build dashboards and present findings.',
      location_text: 'Haifa, Israel',
    }),
    params: () => ({}),
  }),
  explored('runs-start', {
    // Fixtures exist only in the sandbox: elsewhere a valid start would be a real run.
    needs: ['sandbox', 'org'],
    shape: {
      fields: requestFields('run-start-request'),
      requiredStated: [
        'job_external_id',
        'acting_user_external_id',
        'target_count',
        'requirements/*/text',
        'requirements/*/kind',
      ],
      text: ['requirements/*/text'],
      ids: ['job_external_id', 'acting_user_external_id'],
    },
    prepare: recruiter,
    base: (_t, p) => ({
      job_external_id: FIXTURE,
      acting_user_external_id: p.user,
      target_count: 3,
      requirements: [{ text: 'Python and SQL', kind: 'nice' }],
    }),
    params: () => ({}),
  }),
  explored('decisions', {
    needs: ['sandbox', 'org'],
    shape: {
      fields: requestFields('decisions-request'),
      // `decisions` itself: "may be empty", its requiredness not stated.
      requiredStated: [
        'acting_user_external_id',
        'decisions/*/candidate_id',
        'decisions/*/decision',
        'decisions/*/occurred_at',
      ],
      text: ['decisions/*/note'],
      ids: ['acting_user_external_id'],
    },
    prepare: withFixtureRun,
    base: (t, p) => ({
      acting_user_external_id: p.user,
      decisions: [
        {
          candidate_id: FIRST_FIXTURE_CANDIDATE,
          decision: 'shortlisted',
          note: 'Strong SQL',
          occurred_at: t.setup.occurredAt(),
        },
      ],
      notices_shown: ['run_funnel'],
    }),
    params: (p) => ({ run_id: p.runId ?? '' }),
  }),
  explored('reveal', {
    // Free in the sandbox only: production reveals spend credits.
    needs: ['sandbox', 'org'],
    shape: {
      fields: requestFields('reveal-request'),
      requiredStated: ['acting_user_external_id'],
      ids: ['acting_user_external_id'],
    },
    prepare: withFixtureRun,
    base: (_t, p) => ({ acting_user_external_id: p.user }),
    params: (p) => ({ run_id: p.runId ?? '', candidate_id: FIRST_FIXTURE_CANDIDATE }),
  }),
  explored('redeem', {
    // A code never issued is refused everywhere alike: nothing is spent, in the sandbox or in production.
    needs: [],
    shape: {
      fields: requestFields('redeem-request'),
      requiredStated: ['code', 'external_id'],
      text: ['code'],
      ids: ['external_id'],
    },
    prepare: () => Promise.resolve({ user: '' }),
    base: (_t, _p, fresh) => ({ code: NEVER_ISSUED_CODE, external_id: fresh }),
    params: () => ({}),
    neverSucceeds: true,
  }),
];
