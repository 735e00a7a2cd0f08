// The endpoint table's matcher over hostile paths, compared case by case with the four parsers it
// replaced (kept below, verbatim in what they accepted, as the oracle). Where those parsers disagreed
// with each other the matcher had to pick one answer; each such row names the old parser it departs
// from and why, and the test checks that the departure is exactly there and nowhere else.

import { describe, expect, it } from 'vitest';
import { S } from '../spec/sections.js';
import {
  ENDPOINT_LIST,
  matchEndpoint,
  matchWireEndpoint,
  paramNamesOf,
  pathOf,
  type EndpointName,
} from './endpoints.js';

// ---- The old parsers (before the endpoint table), as oracles. -------------------------------------

/** src/partner/recorder.ts `endpointOf`, given the path without its query string (as the recorder did). */
function oldRecorder(method: string, path: string): { endpoint: string; runId?: string } {
  const s = path.replace(/^\/v1\//, '').split('/');
  if (!path.startsWith('/v1/')) return { endpoint: 'other' };
  if (s.length === 2 && s[0] === 'activations' && s[1] === 'redeem' && method === 'POST') return { endpoint: 'redeem' };
  if (s.length === 1 && method === 'POST') {
    if (s[0] === 'users') return { endpoint: 'users' };
    if (s[0] === 'jobs') return { endpoint: 'jobs' };
    if (s[0] === 'runs') return { endpoint: 'runs-start' };
  }
  if (s[0] === 'runs' && s[1]) {
    const runId = decodeOr(s[1]);
    if (s.length === 2 && method === 'GET') return { endpoint: 'runs-read', runId };
    if (s.length === 3 && s[2] === 'decisions' && method === 'POST') return { endpoint: 'decisions', runId };
    if (s.length === 5 && s[2] === 'candidates' && s[4] === 'reveal' && method === 'POST')
      return { endpoint: 'reveal', runId };
  }
  if (s.join('/') === 'sandbox/webhooks/test' && method === 'POST') return { endpoint: 'webhook-test' };
  return { endpoint: 'other' };
}

function decodeOr(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** src/partner/injections.ts: the endpoints its branches told apart, and the run id (raw) they keyed on. */
function oldInjections(method: string, fullPath: string): { endpoint: string; runId?: string } {
  const q = fullPath.indexOf('?');
  const path = q < 0 ? fullPath : fullPath.slice(0, q);
  if (method === 'POST' && path === '/v1/activations/redeem') return { endpoint: 'redeem' };
  if (method === 'POST' && /^\/v1\/runs\/[^/]+\/candidates\/[^/]+\/reveal$/.test(path)) {
    // The reveal branch read no run id; the recorder's decoded one stands in for it.
    return { endpoint: 'reveal', runId: decodeOr(path.split('/')[3]!) };
  }
  const read = method === 'GET' ? /^\/v1\/runs\/([^/]+)$/.exec(path) : null;
  if (read) return { endpoint: 'runs-read', runId: read[1]! };
  const decisions = method === 'POST' ? /^\/v1\/runs\/([^/]+)\/decisions$/.exec(path) : null;
  if (decisions) return { endpoint: 'decisions', runId: decisions[1]! };
  if (method === 'POST' && path === '/v1/runs') return { endpoint: 'runs-start' };
  if (method === 'POST' && path === '/v1/users') return { endpoint: 'users' };
  if (method === 'POST' && path === '/v1/jobs') return { endpoint: 'jobs' };
  return { endpoint: 'other' };
}

/** src/api-setup/run-read-journal.ts: the run a GET reads, on a path relative to the base. */
function oldJournal(method: string, path: string): string | undefined {
  const m = method.toUpperCase() === 'GET' ? /^\/runs\/([^/?#]+)$/.exec(path) : null;
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return undefined;
  }
}

/** src/partner/rules/candidate-ids.ts: the candidate a reveal names (its path as recorded). */
function oldCandidate(path: string): string {
  return decodeURIComponent(path.split('/')[5] ?? '');
}

// ---- The cases. ------------------------------------------------------------------------------------

const RUN = '3f1c2a7e-5b8d-4e3a-9c21-7d5e0b6a4f10';
const LONG = 'a'.repeat(10_000);
/** 2^53 + 1: a double would read it as 2^53. */
const ABOVE_2_53 = '9007199254740993';

type Old = 'recorder' | 'injections' | 'journal' | 'candidate-ids';

interface Case {
  method: string;
  /** As on the wire, under /v1 (a partner's request). */
  path: string;
  expected?: { name: EndpointName; params?: Record<string, string> };
  /** An old parser this row departs from on purpose, and why. */
  departs?: Partial<Record<Old, string>>;
}

const CASES: Case[] = [
  { method: 'POST', path: '/v1/activations/redeem', expected: { name: 'redeem' } },
  { method: 'GET', path: '/v1/activations/redeem' },
  { method: 'POST', path: '/v1/activations/redeem/' },
  { method: 'POST', path: '/v1/users', expected: { name: 'users' } },
  { method: 'POST', path: '/v1/users?x=1&y=/runs', expected: { name: 'users' } },
  { method: 'POST', path: '/v1/users/' },
  { method: 'POST', path: '/v1//users' },
  { method: 'POST', path: '//v1/users' },
  { method: 'POST', path: '/v1/Users' },
  { method: 'POST', path: '/v1/%75sers' },
  { method: 'GET', path: '/v1/users' },
  { method: 'post', path: '/v1/users' },
  { method: 'POST', path: '/users' },
  { method: 'POST', path: '/v2/users' },
  { method: 'POST', path: '/v1' },
  { method: 'POST', path: '/v1/' },
  { method: 'POST', path: '' },
  { method: 'POST', path: '/v1/jobs', expected: { name: 'jobs' } },
  { method: 'POST', path: '/v1/jobs/x' },
  { method: 'POST', path: '/v1/runs', expected: { name: 'runs-start' } },
  { method: 'POST', path: '/v1/runs?dry_run=1', expected: { name: 'runs-start' } },
  { method: 'POST', path: '/v1/runs/' },
  { method: 'GET', path: '/v1/runs' },
  { method: 'GET', path: `/v1/runs/${RUN}`, expected: { name: 'runs-read', params: { run_id: RUN } } },
  {
    method: 'GET',
    path: `/v1/runs/${RUN}?x-svc-lang=he`,
    expected: { name: 'runs-read', params: { run_id: RUN } },
    departs: { journal: 'its pattern refused a query string; the run read is the same read with one' },
  },
  { method: 'GET', path: `/v1/runs/${RUN}/` },
  { method: 'GET', path: '/v1/runs/' },
  { method: 'GET', path: `/v1/runs//${RUN}` },
  { method: 'GET', path: `/v1//runs/${RUN}` },
  { method: 'POST', path: `/v1/runs/${RUN}` },
  {
    method: 'GET',
    path: '/v1/runs/a%2Fb',
    expected: { name: 'runs-read', params: { run_id: 'a/b' } },
    departs: { injections: 'keyed on the raw segment; every reader now sees the decoded id the recorder judged' },
  },
  {
    method: 'GET',
    path: '/v1/runs/%zz',
    expected: { name: 'runs-read', params: { run_id: '%zz' } },
    departs: {
      journal: 'left a segment that is no valid percent-encoding unmatched; now kept as sent, like the recorder',
    },
  },
  {
    method: 'GET',
    path: '/v1/runs/abc#frag',
    expected: { name: 'runs-read', params: { run_id: 'abc#frag' } },
    departs: { journal: "refused '#' in the segment; the recorder and injections kept it, as now" },
  },
  { method: 'GET', path: `/v1/runs/${LONG}`, expected: { name: 'runs-read', params: { run_id: LONG } } },
  {
    method: 'POST',
    path: `/v1/runs/${RUN}/decisions`,
    expected: { name: 'decisions', params: { run_id: RUN } },
  },
  { method: 'POST', path: `/v1/runs/${RUN}/decisions/` },
  { method: 'POST', path: '/v1/runs//decisions' },
  { method: 'GET', path: `/v1/runs/${RUN}/decisions` },
  {
    method: 'POST',
    path: `/v1/runs/${RUN}/candidates/${ABOVE_2_53}/reveal`,
    expected: { name: 'reveal', params: { run_id: RUN, candidate_id: ABOVE_2_53 } },
  },
  {
    method: 'POST',
    path: `/v1/runs/${RUN}/candidates/%39${ABOVE_2_53.slice(1)}/reveal`,
    expected: { name: 'reveal', params: { run_id: RUN, candidate_id: ABOVE_2_53 } },
  },
  {
    method: 'POST',
    path: `/v1/runs/${RUN}/candidates/%zz/reveal`,
    expected: { name: 'reveal', params: { run_id: RUN, candidate_id: '%zz' } },
    departs: { 'candidate-ids': 'decodeURIComponent threw (an engine error in a rule); the segment is kept as sent' },
  },
  {
    method: 'POST',
    path: `/v1/runs/${RUN}/candidates//reveal`,
    departs: {
      recorder:
        'recorded an empty candidate segment as a reveal; the injections and the sandbox (404 not_found) did not',
    },
  },
  { method: 'POST', path: `/v1/runs/${RUN}/candidates/1/reveal/` },
  { method: 'POST', path: `/v1/runs/${RUN}/candidates/1` },
  { method: 'GET', path: `/v1/runs/${RUN}/candidates/1/reveal` },
  {
    method: 'POST',
    path: `/v1/runs/${RUN}/candidates/${'9'.repeat(400)}/reveal?a=/b/c`,
    expected: { name: 'reveal', params: { run_id: RUN, candidate_id: '9'.repeat(400) } },
  },
  { method: 'POST', path: '/v1/sandbox/webhooks/test', expected: { name: 'webhook-test' } },
  { method: 'GET', path: '/v1/sandbox/webhooks/test' },
  { method: 'POST', path: '/v1/sandbox/webhooks/test/' },
];

/** What the new matcher says, in each old parser's terms. */
function asRecorder(c: Case): { endpoint: string; runId?: string } {
  const m = matchWireEndpoint(c.method, c.path);
  if (!m) return { endpoint: 'other' };
  return { endpoint: m.name, ...('run_id' in m.params ? { runId: m.params.run_id } : {}) };
}

const withoutQuery = (p: string): string => (p.includes('?') ? p.slice(0, p.indexOf('?')) : p);

describe('matchWireEndpoint over hostile paths', () => {
  it.each(CASES.map((c) => [`${c.method} ${c.path.slice(0, 80)}`, c] as const))('%s', (_name, c) => {
    const m = matchWireEndpoint(c.method, c.path);
    if (!c.expected) expect(m).toBeUndefined();
    else
      expect(m && { name: m.name, params: m.params }).toEqual({
        name: c.expected.name,
        params: c.expected.params ?? {},
      });
  });

  it('says what the recorder said, but where a row departs from it', () => {
    for (const c of CASES) {
      const old = oldRecorder(c.method, withoutQuery(c.path));
      if (c.departs?.recorder) expect(asRecorder(c), c.path).not.toEqual(old);
      else expect(asRecorder(c), `${c.method} ${c.path}`).toEqual(old);
    }
  });

  it('says what the injections said, but where a row departs from them', () => {
    for (const c of CASES) {
      const old = oldInjections(c.method, c.path);
      // The injections told apart the endpoints they act on; the webhook test is not one of them.
      const now = asRecorder(c).endpoint === 'webhook-test' ? { endpoint: 'other' } : asRecorder(c);
      if (c.departs?.injections) expect(now, c.path).not.toEqual(old);
      else expect(now, `${c.method} ${c.path}`).toEqual(old);
    }
  });

  it('reads the run of a run read as the run-read journal did, but where a row departs from it', () => {
    // The journal saw paths relative to the base, as the certifier's client sends them.
    for (const c of CASES.filter((x) => x.path.startsWith('/v1/'))) {
      const relative = c.path.slice('/v1'.length);
      const m = matchEndpoint(c.method.toUpperCase(), relative);
      const now = m?.name === 'runs-read' ? m.params.run_id : undefined;
      const old = oldJournal(c.method, relative);
      if (c.departs?.journal) expect(now, c.path).not.toEqual(old);
      else expect(now, `${c.method} ${c.path}`).toEqual(old);
    }
  });

  it('reads the candidate of a reveal as the candidate-ids rule did, but where a row departs from it', () => {
    for (const c of CASES.filter((x) => oldRecorder(x.method, withoutQuery(x.path)).endpoint === 'reveal')) {
      const m = matchWireEndpoint(c.method, c.path);
      const now = m?.name === 'reveal' ? m.params.candidate_id : undefined;
      let old: string | Error;
      try {
        old = oldCandidate(withoutQuery(c.path));
      } catch (e) {
        old = e as Error;
      }
      if (c.departs?.['candidate-ids']) {
        expect(old, c.path).toBeInstanceOf(URIError);
        expect(now).toBe(c.expected?.params?.candidate_id);
      } else if (c.departs?.recorder) expect(now, c.path).toBeUndefined();
      else expect(now, `${c.method} ${c.path}`).toBe(old);
    }
  });

  it('every departure is one the rows name (each row checked above would fail without its note)', () => {
    const named = CASES.flatMap((c) => Object.keys(c.departs ?? {}));
    expect(named.sort()).toEqual(['candidate-ids', 'injections', 'journal', 'journal', 'journal', 'recorder']);
  });
});

describe('pathOf', () => {
  it('fills and percent-encodes the parameters; the matcher reads them back', () => {
    const runIds = [RUN, 'a/b', '%zz', 'ü ?#', LONG];
    for (const run_id of runIds) {
      const path = pathOf('decisions', { run_id });
      expect(path).toBe(`/runs/${encodeURIComponent(run_id)}/decisions`);
      expect(matchEndpoint('POST', path)?.params).toEqual({ run_id });
    }
  });

  it('writes a candidate id above 2^53 digit for digit, from a bigint or its digits', () => {
    const id = 2n ** 63n - 1n;
    expect(pathOf('reveal', { run_id: RUN, candidate_id: id })).toBe(
      `/runs/${RUN}/candidates/9223372036854775807/reveal`,
    );
    expect(matchEndpoint('POST', pathOf('reveal', { run_id: RUN, candidate_id: ABOVE_2_53 }))?.params).toEqual({
      run_id: RUN,
      candidate_id: ABOVE_2_53,
    });
  });

  it('gives every endpoint without parameters its path as the table writes it', () => {
    expect(pathOf('users', {})).toBe('/users');
    expect(pathOf('webhook-test', {})).toBe('/sandbox/webhooks/test');
  });
});

describe('the table', () => {
  it("names each endpoint's section by its method and path, as the spec's headings do", () => {
    for (const e of ENDPOINT_LIST) expect(e.spec.startsWith(`Endpoints › ${e.method} ${e.path}`), e.name).toBe(true);
  });

  it('takes the org token everywhere but on redeem, and the request schema on every write', () => {
    expect(ENDPOINT_LIST.filter((e) => !e.orgToken).map((e) => e.name)).toEqual(['redeem']);
    expect(ENDPOINT_LIST.filter((e) => !('request' in e)).map((e) => e.name)).toEqual(['runs-read']);
    expect(ENDPOINT_LIST.filter((e) => e.method === 'GET').map((e) => e.name)).toEqual(['runs-read']);
  });

  it('lists the path parameters in order', () => {
    expect(ENDPOINT_LIST.map((e) => [e.name, paramNamesOf(e)])).toContainEqual(['reveal', ['run_id', 'candidate_id']]);
    expect(S.reveal).toContain('{run_id}/candidates/{candidate_id}');
  });
});
