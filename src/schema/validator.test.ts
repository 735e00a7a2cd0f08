import { readdirSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { parseJsonLossless } from '../json/lossless.js';
import { findSchemasDir } from './schemas-dir.js';
import {
  compileSchemas,
  DETAILED_ITEMS,
  isSchemaName,
  SCHEMA_NAMES,
  validateAgainst,
  type SchemaName,
} from './validator.js';

const RUN_ID = '3f2b8c1e-9a4d-4e2f-8b7a-1c2d3e4f5a6b';
const UUID_2 = '0d9e8f7a-6b5c-4d3e-a2f1-0e9d8c7b6a59';
const AT = '2025-03-14T09:26:53.589Z';
const X = { zz_extra: { nested: [1, 'two'] } };

const issue = {
  index: 0,
  code: 'short_term_may_be_dropped',
  message_he: 'מונח קצר',
  message_en: 'Short term',
  suggestion_he: null,
  suggestion_en: 'Write the term in full',
  ...X,
};

const progress = { confirmed: 2, target: 3, screened: 40, ...X };

const candidateRequirement = (index: number, met: boolean | null) => ({
  index,
  text: 'TypeScript',
  kind: 'must',
  met,
  evidence: met === null ? null : 'Five years of TypeScript',
  ...X,
});

const candidate = {
  id: 990000000001,
  name: 'Candidate 3a7f',
  title: 'Engineer',
  company: null,
  location: 'Haifa',
  verdict: 'strong',
  requirements: [candidateRequirement(0, true), candidateRequirement(1, null)],
  contact_state: 'locked',
  reveal_price_credits: 0,
  ...X,
};

const notices = [
  { code: 'run_progress', severity: 'info', slot: 'above_list', title: 'Working', body: 'Still searching', ...X },
  {
    code: 'requirement_blockers',
    severity: 'warning',
    slot: 'on_requirement',
    title: 'Rare',
    body: 'Few profiles',
    ref: { requirement_index: 1, ...X },
  },
  { code: 'zz_certification_probe', severity: 'zz_unknown_severity', slot: 'zz_unknown_slot', title: 't', body: 'b' },
  {
    code: 'zz_certification_probe',
    severity: 'info',
    slot: 'on_candidate',
    title: 't',
    body: 'b',
    ref: { candidate_id: 9007199254740993n },
  },
];

const envelope = {
  event_id: 'evt_01HZX3',
  run_id: RUN_ID,
  organization_external_id: 'org-42',
  job_external_id: 'cert-webhook',
  occurred_at: AT,
  ...X,
};

const exchange = {
  index: 0,
  label: 'setup: redeem',
  startedAt: AT,
  durationMs: 12.5,
  request: {
    method: 'POST',
    url: 'http://127.0.0.1:1/v1/runs',
    headers: { 'x-partner-key': 'spk_live_ab…' },
    body: '{}',
  },
  response: { status: 202, headers: { 'content-type': 'application/json' }, bodyBytes: 2, body: '{}' },
  curl: 'curl -X POST …',
};

const VALID_EXAMPLES: Record<SchemaName, unknown> = {
  'organization-connection': {
    organization_id: UUID_2,
    org_token: `sot_${'0123456789abcdef'.repeat(3)}`,
    organization_name: 'Acme',
    ...X,
  },
  'user-response': { user_id: UUID_2, created: true, ...X },
  'job-response': { job_id: UUID_2, created: false, updated: true, ...X },
  'job-issue': { field: 'location_text', code: 'location_missing', message_he: 'חסר', message_en: 'Missing', ...X },
  requirement: { index: 0, text: 'TypeScript', kind: 'must', origin: 'partner', ...X },
  'requirement-issue': issue,
  'run-start-response': {
    run_id: RUN_ID,
    status: 'running',
    warnings: [issue],
    requirements: [
      { index: 0, text: 'TypeScript', kind: 'must', origin: 'partner', ...X },
      { index: 1, text: 'Engineer', kind: 'must', origin: 'zz_future_origin' },
    ],
    sandbox: { fixture: 'cert-extra-fields', ...X },
    ...X,
  },
  run: {
    run_id: RUN_ID,
    status: 'zz_future_status',
    progress,
    notices,
    candidates: [candidate, { ...candidate, id: 9223372036854775807n, contact_state: 'revealed', title: null }],
    sandbox: { fixture: 'cert-notices-all' },
    zz_extra_top_level: true,
    zz_future_object: { a: 1 },
  },
  progress,
  notice: notices[1],
  candidate,
  'candidate-requirement': candidateRequirement(0, false),
  'reveal-result': {
    email: 'candidate-990000000001@example.invalid',
    phone: null,
    credits_charged: 0,
    wallet_balance_after: 500,
    sandbox: true,
    ...X,
  },
  'decisions-response': { accepted: 2, duplicates: 0, ...X },
  'sandbox-fixture': { fixture: 'cert-empty', ...X },
  'error-envelope': { error: 'zz_new_code', message: 'Something', ...X },
  'job-rejected': {
    error: 'job_rejected',
    message: 'Rejected',
    rejected: [{ field: 'title', code: 'title_missing', message_he: 'חסר', message_en: 'Missing' }],
    ...X,
  },
  'requirements-rejected': {
    error: 'requirements_rejected',
    message: 'Rejected',
    rejected: [{ ...issue, index: -1, code: 'invalid_kind' }],
    warnings: [],
    ...X,
  },
  'code-already-redeemed': {
    error: 'code_already_redeemed',
    message: 'Used',
    redeemed_at: '2025-03-14T09:26:53+00:00',
  },
  'insufficient-credits': {
    error: 'insufficient_credits',
    message: 'No credits',
    balance: 0,
    required: 5,
    reason: 'simulated',
  },
  'unknown-reject-reason': { error: 'unknown_reject_reason', message: 'No', allowed: ['known', 'location'] },
  'sandbox-limit': { error: 'sandbox_limit', message: 'Too many', max_target_count: 20 },
  'sandbox-run-quota': { error: 'sandbox_run_quota', message: 'Quota', retry_after_seconds: 3600, limit: 20 },
  'unknown-fixture': { error: 'unknown_fixture', message: 'No', fixtures: ['cert-empty', 'cert-slow'] },
  'webhook-envelope': { ...envelope, event: 'zz_future_event' },
  'webhook-run-completed': { ...envelope, event: 'run_completed', progress },
  'webhook-run-failed': { ...envelope, event: 'run_failed' },
  'webhook-candidate-revealed': { ...envelope, event: 'candidate_revealed', candidate_id: 990000000001 },
  'webhook-test-response': { event_id: UUID_2, event: 'run_failed', run_id: RUN_ID, valid_signature: false, ...X },
  'redeem-request': { code: 'svc-abcd efgh', external_id: 'org-42' },
  'user-request': { external_id: 'u-1', email: 'r@example.com', full_name: 'Rina Recruiter', role: 'recruiter' },
  'job-request': { external_id: 'j-1', title: 'Engineer', description_text: 'Builds things', location_text: 'Haifa' },
  'requirement-input': { text: 'TypeScript', kind: 'nice' },
  'run-start-request': {
    job_external_id: 'j-1',
    acting_user_external_id: 'u-1',
    target_count: 3,
    requirements: [{ text: 'TypeScript', kind: 'must' }],
  },
  'reveal-request': { acting_user_external_id: 'u-1' },
  decision: { candidate_id: 990000000001, decision: 'rejected', reject_reason: null, note: null, occurred_at: AT },
  'decisions-request': {
    acting_user_external_id: 'u-1',
    decisions: [
      { candidate_id: 9223372036854775807n, decision: 'rejected', reject_reason: 'known', occurred_at: AT },
      { candidate_id: 990000000002, decision: 'hired', note: 'Great', occurred_at: AT },
    ],
    notices_shown: ['run_progress', 'zz_certification_probe'],
  },
  'webhook-test-request': { event: 'candidate_revealed', valid_signature: false },
  results: {
    tool: { name: 'svc-certify', version: '0.1.0' },
    spec: { title: 'Partner Candidate-Matching API (v1) Specification', sha256: 'ab'.repeat(32) },
    config: { baseUrl: 'http://127.0.0.1:1/v1', partnerKey: 'spk_live_ab…' },
    target: { baseUrl: 'http://127.0.0.1:1/v1', environment: 'sandbox', embedded: true },
    startedAt: AT,
    finishedAt: AT,
    durationMs: 1234,
    summary: { total: 2, passed: 1, failed: 1, skipped: 0, error: 0, warning: 0 },
    suites: ['runs-start'],
    checks: [
      {
        id: 'runs.start.rejects-fourth-must',
        title: 'A fourth must is refused',
        suite: 'runs-start',
        spec: ['Endpoints › POST /runs (start a run)'],
        status: 'failed',
        message: 'expected 422',
        durationMs: 20,
        observations: [
          { message: 'expected 422', spec: 'Limits', expected: '422', received: '202', pointer: '', exchange: 0 },
        ],
        exchanges: [
          exchange,
          { ...exchange, index: 1, response: undefined, transportError: { code: 'ECONNRESET', message: 'reset' } },
        ],
      },
      {
        id: 'engine.broke',
        title: 'x',
        suite: 'runs-start',
        spec: [],
        status: 'error',
        message: 'boom',
        durationMs: 0,
        observations: [],
        exchanges: [],
        error: { name: 'TypeError', message: 'boom', stack: 'at x' },
      },
    ],
    stats: { requests: 2, realRuns: 0, rateLimited: 0 },
  },
};

// Examples above: written from the spec's tables, one per schema; responses and webhooks carry
// unknown fields at every level (the spec lets the service add fields at any time).

/** The value at `pointer` replaced (or removed when `value` is undefined), on a deep copy. */
function withChange(name: SchemaName, pointer: string, value: unknown): unknown {
  const copy = structuredClone(VALID_EXAMPLES[name]);
  const tokens = pointer.split('/').slice(1);
  const last = tokens.pop() as string;
  let node = copy as Record<string, unknown>;
  for (const t of tokens) node = node[t] as Record<string, unknown>;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

function issueAt(name: SchemaName, value: unknown, pointer: string) {
  const issues = validateAgainst(name, value);
  const found = issues.find((i) => i.pointer === pointer);
  expect(found, `no issue at ${pointer}: ${JSON.stringify(issues)}`).toBeDefined();
  return found!;
}

describe('schemas/', () => {
  test('every schema compiles', () => {
    expect([...compileSchemas().keys()]).toEqual([...SCHEMA_NAMES]);
  });

  test('the folder holds exactly the named schemas', () => {
    const files = readdirSync(findSchemasDir())
      .filter((f) => f.endsWith('.schema.json'))
      .map((f) => f.replace(/\.schema\.json$/, ''))
      .sort();
    expect(files).toEqual([...SCHEMA_NAMES].sort());
    expect(isSchemaName('run')).toBe(true);
    expect(isSchemaName('nope')).toBe(false);
  });

  test.each(SCHEMA_NAMES)('%s accepts a spec-conformant example', (name) => {
    expect(validateAgainst(name, VALID_EXAMPLES[name])).toEqual([]);
  });

  test('examples survive a lossless JSON round trip (numbers as read from the wire)', () => {
    const text =
      '{"run_id":"3f2b8c1e-9a4d-4e2f-8b7a-1c2d3e4f5a6b","status":"running","progress":{"confirmed":0,"target":1,"screened":0},' +
      '"notices":[],"candidates":[{"id":9223372036854775807,"name":"n","title":null,"company":null,"location":null,' +
      '"verdict":"weak","requirements":[],"contact_state":"locked","reveal_price_credits":3}]}';
    expect(validateAgainst('run', parseJsonLossless(text))).toEqual([]);
  });
});

describe('refusals carry the pointer and the offending value', () => {
  test('missing required field points where it belongs', () => {
    const issue = issueAt('run', withChange('run', '/progress', undefined), '/progress');
    expect(issue).toMatchObject({
      keyword: 'required',
      message: "must have required property 'progress'",
      received: '(absent)',
    });
  });

  test('missing field deep inside', () => {
    // A candidate's fields are all required ("All fields required"); a CandidateRequirement's evidence
    // is only listed, so its absence is no refusal (spec-keywords.test.ts).
    const issue = issueAt(
      'run',
      withChange('run', '/candidates/1/contact_state', undefined),
      '/candidates/1/contact_state',
    );
    expect(issue.keyword).toBe('required');
    expect(validateAgainst('run', withChange('run', '/candidates/1/requirements/0/evidence', undefined))).toEqual([]);
  });

  test('wrong enum value', () => {
    const issue = issueAt('candidate', withChange('candidate', '/verdict', 'excellent'), '/verdict');
    expect(issue.message).toBe('must be one of strong, good, weak, not the string "excellent"');
    expect(issue.received).toBe('"excellent"');
  });

  test('closed sets: kind, contact_state, decision, reject_reason', () => {
    expect(issueAt('requirement', withChange('requirement', '/kind', 'should'), '/kind').keyword).toBe('enum');
    expect(issueAt('candidate', withChange('candidate', '/contact_state', 'open'), '/contact_state').keyword).toBe(
      'enum',
    );
    expect(issueAt('decision', withChange('decision', '/decision', 'maybe'), '/decision').keyword).toBe('enum');
    expect(
      issueAt('decision', withChange('decision', '/reject_reason', 'too_expensive'), '/reject_reason').keyword,
    ).toBe('enum');
  });

  test('open sets accept unknown values: run status, notice severity, slot, code, issue codes, origin', () => {
    expect(validateAgainst('run', withChange('run', '/status', 'paused'))).toEqual([]);
    expect(validateAgainst('notice', withChange('notice', '/severity', 'zz'))).toEqual([]);
    expect(validateAgainst('notice', withChange('notice', '/slot', 'zz'))).toEqual([]);
    expect(validateAgainst('requirement', withChange('requirement', '/origin', 'derived'))).toEqual([]);
    expect(validateAgainst('job-issue', withChange('job-issue', '/code', 'zz_new'))).toEqual([]);
  });

  test('candidate id as a string', () => {
    const issue = issueAt(
      'candidate',
      parseJsonLossless(JSON.stringify({ ...(VALID_EXAMPLES.candidate as object), id: '990000000001' })),
      '/id',
    );
    expect(issue.keyword).toBe('int64');
    expect(issue.message).toBe('must be an integer within int64, not the string "990000000001"');
    expect(issue.received).toBe('"990000000001"');
  });

  test('candidate id as a float token', () => {
    const value = parseJsonLossless(
      '{"event_id":"e","event":"candidate_revealed","run_id":"3f2b8c1e-9a4d-4e2f-8b7a-1c2d3e4f5a6b","organization_external_id":"o","job_external_id":"j","occurred_at":"2025-01-01T00:00:00Z","candidate_id":990000000001.0}',
    );
    const issue = issueAt('webhook-candidate-revealed', value, '/candidate_id');
    expect(issue.message).toBe('must be an integer within int64, not the number token 990000000001.0');
    expect(issue.received).toBe('990000000001.0');
  });

  test('candidate id above int64', () => {
    const value = parseJsonLossless('{"text":"x","candidate_id":9223372036854775808}');
    const issue = issueAt('decision', value, '/candidate_id');
    expect(issue.message).toContain('outside int64');
    expect(issue.received).toBe('9223372036854775808');
    expect(validateAgainst('decision', withChange('decision', '/candidate_id', -(2n ** 63n)))).toEqual([]);
  });

  test('notice ref.candidate_id is int64 too', () => {
    const issue = issueAt('run', withChange('run', '/notices/3/ref/candidate_id', '1'), '/notices/3/ref/candidate_id');
    expect(issue.keyword).toBe('int64');
  });

  test('null where not nullable', () => {
    const issue = issueAt('candidate', withChange('candidate', '/name', null), '/name');
    expect(issue.message).toBe('must be a string, not null');
    expect(issue.received).toBe('null');
    expect(issueAt('run', withChange('run', '/progress', null), '/progress').keyword).toBe('type');
  });

  test('null where nullable is accepted, a number is not', () => {
    expect(validateAgainst('candidate-requirement', withChange('candidate-requirement', '/met', null))).toEqual([]);
    const issue = issueAt('candidate-requirement', withChange('candidate-requirement', '/met', 1), '/met');
    expect(issue.message).toBe('must be a boolean or null, not the integer 1');
  });

  test('non-UTC and malformed timestamps', () => {
    const bad = [
      '2025-03-14T11:26:53+02:00',
      '2025-03-14T12:26:53+03:00',
      '2025-03-14T09:26:53+0300',
      '2025-03-14T09:26:53+03',
      '2025-03-14T09:26:53-00:00',
      '2025-03-14T09:26:53+00:0',
      '2025-03-14T09:26:53+000',
      '2025-03-14 09:26:53Z',
      '2025-03-14t09:26:53Z',
      '2025-03-14T09:26:53z',
      '2025-02-30T09:26:53Z',
      '2025-02-29T09:26Z',
      '2025-03-14T24:00Z',
      '2025-03-14T09:60Z',
      '2025-03-14T09:26:53',
      '2025-03-14T09:26',
      '2025-03-14T09Z',
      '2025-03-14T09:26.5Z',
      '2025-03-14T09:26:53.Z',
    ];
    for (const value of bad) {
      const issue = issueAt('webhook-envelope', withChange('webhook-envelope', '/occurred_at', value), '/occurred_at');
      expect(issue.keyword, value).toBe('format');
      expect(issue.message).toContain('in UTC');
    }
    const good = [
      '2025-03-14T09:26:53Z',
      '2025-03-14T09:26:53.1+00:00',
      '2024-02-29T23:59:60Z',
      '2025-03-14T09:26:53+00',
      '2025-03-14T09:26:53+0000',
      '2025-03-14T09:26:53.123+0000',
      '2025-03-14T09:26Z',
      '2025-03-14T09:26+00:00',
      '2025-03-14T09:26+00',
      '2025-03-14T09:26:53,5Z',
    ];
    for (const value of good) {
      expect(validateAgainst('webhook-envelope', withChange('webhook-envelope', '/occurred_at', value)), value).toEqual(
        [],
      );
    }
  });

  test("the sandbox faults' non-UTC timestamps stay refused", () => {
    // conventions.timestamp-not-utc writes +03:00, webhooks.occurred-at-not-utc +02:00.
    for (const value of ['2025-03-14T12:26:53.000+03:00', '2025-03-14T11:26:53.000+02:00']) {
      const issue = issueAt('webhook-envelope', withChange('webhook-envelope', '/occurred_at', value), '/occurred_at');
      expect(issue.keyword, value).toBe('format');
    }
  });

  test('integers: negative, fraction token, beyond 2^53', () => {
    expect(issueAt('progress', withChange('progress', '/screened', -1), '/screened').message).toBe('must be >= 0');
    const decimal = parseJsonLossless('{"confirmed":1.0,"target":1,"screened":1}');
    expect(issueAt('progress', decimal, '/confirmed').message).toBe('must be an integer, not the number token 1.0');
    const big = parseJsonLossless('{"accepted":9007199254740993,"duplicates":0}');
    expect(issueAt('decisions-response', big, '/accepted').received).toBe('9007199254740993');
  });

  test('uuid and org token formats', () => {
    expect(
      issueAt('run', withChange('run', '/run_id', 'urn:uuid:3f2b8c1e-9a4d-4e2f-8b7a-1c2d3e4f5a6b'), '/run_id').keyword,
    ).toBe('format');
    const issue = issueAt(
      'organization-connection',
      withChange('organization-connection', '/org_token', `sot_${'A'.repeat(48)}`),
      '/org_token',
    );
    expect(issue.keyword).toBe('pattern');
    // A token never appears in full, even a malformed one.
    expect(issue.received).toBe('"sot_AAAAAAAA…"');
    expect(issue.message).not.toContain('A'.repeat(13));
  });

  test('webhook event_id is opaque, the test endpoint event_id is a uuid', () => {
    expect(validateAgainst('webhook-envelope', withChange('webhook-envelope', '/event_id', 'not-a-uuid'))).toEqual([]);
    expect(
      issueAt('webhook-test-response', withChange('webhook-test-response', '/event_id', 'x'), '/event_id').keyword,
    ).toBe('format');
  });

  test('events check their name and extra fields', () => {
    expect(
      issueAt('webhook-run-failed', withChange('webhook-run-failed', '/event', 'run_completed'), '/event').keyword,
    ).toBe('const');
    expect(
      issueAt('webhook-run-completed', withChange('webhook-run-completed', '/progress', undefined), '/progress')
        .keyword,
    ).toBe('required');
    expect(
      issueAt('webhook-run-completed', withChange('webhook-run-completed', '/run_id', undefined), '/run_id').keyword,
    ).toBe('required');
  });

  test('reveal result sandbox must be true when present', () => {
    expect(issueAt('reveal-result', withChange('reveal-result', '/sandbox', false), '/sandbox').keyword).toBe('const');
    expect(validateAgainst('reveal-result', withChange('reveal-result', '/sandbox', undefined))).toEqual([]);
  });

  test('a fraction token where an object belongs', () => {
    const notice = parseJsonLossless(
      '{"code":"c","severity":"info","slot":"on_candidate","title":"t","body":"b","ref":1.5}',
    );
    expect(issueAt('notice', notice, '/ref').message).toBe('must be an object, not the number token 1.5');
    const progress = parseJsonLossless(
      '{"run_id":"3f2b8c1e-9a4d-4e2f-8b7a-1c2d3e4f5a6b","status":"running","progress":2.0,"notices":[],"candidates":[]}',
    );
    expect(validateAgainst('run', progress)).toEqual([
      {
        pointer: '/progress',
        keyword: 'jsonObject',
        message: 'must be an object, not the number token 2.0',
        received: '2.0',
      },
    ]);
  });

  test('a wrong type reports once, not once per keyword', () => {
    const issues = validateAgainst('candidate', withChange('candidate', '/verdict', 3));
    expect(issues.filter((i) => i.pointer === '/verdict')).toHaveLength(1);
  });

  test('results: status enum and summary counts', () => {
    expect(issueAt('results', withChange('results', '/checks/0/status', 'flaky'), '/checks/0/status').keyword).toBe(
      'enum',
    );
    expect(issueAt('results', withChange('results', '/summary/total', undefined), '/summary/total').keyword).toBe(
      'required',
    );
  });

  test('received is cut at 200 characters', () => {
    const issue = issueAt('candidate', withChange('candidate', '/requirements', 'x'.repeat(500)), '/requirements');
    expect(issue.received.length).toBe(200);
  });

  test('the root of a non-object', () => {
    const [issue] = validateAgainst('error-envelope', 'oops');
    expect(issue).toMatchObject({ pointer: '', keyword: 'type', received: '"oops"' });
  });
});

describe('a hostile size: issues listed in bounded time, faults found anywhere', () => {
  const FAILING_ITEMS = 20_000;

  test(`${FAILING_ITEMS} candidates that are {}: issues of the first ${DETAILED_ITEMS} items only, each item's the same`, () => {
    const run = {
      ...(VALID_EXAMPLES.run as Record<string, unknown>),
      candidates: Array.from({ length: FAILING_ITEMS }, () => ({})),
    };
    const issues = validateAgainst('run', run);
    // The all-errors pass is quadratic in the failing items it sees (ajv concatenates each item's error
    // list: 20,000 took 34 s and GBs), so the bound is what it is shown, counted here, not timed: items
    // 0 to DETAILED_ITEMS - 1, every one of them, and each with as many issues as the first.
    const items = issues.map((i) => Number(i.pointer.split('/')[2]));
    expect([...new Set(items)]).toEqual(Array.from({ length: DETAILED_ITEMS }, (_, i) => i));
    const perItem = items.filter((i) => i === 0).length;
    expect(perItem).toBeGreaterThan(0);
    expect(issues).toHaveLength(perItem * DETAILED_ITEMS);
    expect(issues[0]).toMatchObject({ pointer: '/candidates/0/id', keyword: 'required' });
  });

  test('a fault past the items listed in detail is still an issue, at its own pointer', () => {
    const good = (VALID_EXAMPLES.run as { candidates: unknown[] }).candidates[0];
    const candidates: unknown[] = Array.from({ length: FAILING_ITEMS }, () => good);
    candidates[FAILING_ITEMS - 1] = { ...(good as object), verdict: 'excellent' };
    const issues = validateAgainst('run', { ...(VALID_EXAMPLES.run as object), candidates });
    expect(issues).toEqual([
      expect.objectContaining({ pointer: `/candidates/${FAILING_ITEMS - 1}/verdict`, keyword: 'enum' }),
    ]);
  });
});
