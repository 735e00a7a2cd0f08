import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../http/types.js';
import { parseJsonLossless } from '../json/lossless.js';
import { createExpect } from './expect.js';
import type { Observation } from './results.js';

const BASE = 'http://127.0.0.1:1/v1';

function response(status: number, body: string, headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' }, method = 'GET', path = '/runs/x'): ApiResponse {
  let json;
  try {
    json = parseJsonLossless(body);
  } catch {
    json = undefined;
  }
  return {
    status,
    headers,
    text: body,
    json,
    exchange: { index: 0, startedAt: '', durationMs: 1, request: { method, url: `${BASE}${path}`, headers: {} }, curl: '' },
  };
}

function setup(issues: Array<{ pointer: string; keyword: string; message: string; received: string }> = []) {
  const seen: Array<Omit<Observation, 'exchange'>> = [];
  const e = createExpect({ baseUrl: BASE, observe: (o) => seen.push(o), validate: () => issues });
  return { e, seen };
}

describe('createExpect', () => {
  it('status: names request, received, required and section', () => {
    const { e, seen } = setup();
    expect(e.status(response(200, '{}', undefined, 'POST', '/runs'), 202, 'Endpoints › POST /runs (start a run)')).toBe(false);
    expect(seen[0]!.message).toBe('POST /runs answered 200; the spec requires 202 (Endpoints › POST /runs (start a run))');
    expect(e.status(response(204, ''), '2xx', 'X')).toBe(true);
    expect(e.status(response(0, ''), [200, '4xx'], 'X')).toBe(false);
    expect(seen[1]!.message).toMatch(/^GET \/runs\/x got no HTTP answer/);
  });

  it('error: checks status, content type, envelope and code', () => {
    const { e, seen } = setup();
    expect(e.error(response(401, '{"error":"invalid_org_token","message":"m"}'), 401, 'invalid_org_token', 'Authentication')).toBe(true);
    expect(e.error(response(401, '{"error":"invalid_org_token","message":"m"}'), 401, 'invalid_partner_key', 'Authentication')).toBe(false);
    expect(seen.at(-1)!.message).toBe('GET /runs/x answered 401 with error "invalid_org_token"; the spec requires "invalid_partner_key" (Authentication)');
    expect(e.error(response(403, '{"error":"x","message":"m"}'), 401, 'invalid_partner_key', 'Authentication')).toBe(false);
    expect(seen.at(-1)!.message).toBe('GET /runs/x answered 403 with error "x"; the spec requires 401 invalid_partner_key (Authentication)');
    expect(e.error(response(401, '{"error":"c","message":7}', { 'content-type': 'text/plain' }), 401, 'c', 'A')).toBe(false);
    expect(seen.at(-2)!.message).toMatch(/content type "text\/plain"/);
    expect(seen.at(-1)).toMatchObject({ pointer: '/message', received: '7' });
  });

  it('schema: one observation per issue with pointer and received', () => {
    const { e, seen } = setup([{ pointer: '/candidates/0/id', keyword: 'type', message: 'must be an integer', received: '"990000000001"' }]);
    expect(e.schema({}, 'run', 'S', response(200, '{}'))).toBe(false);
    expect(seen[0]).toMatchObject({ pointer: '/candidates/0/id', received: '"990000000001"' });
    expect(seen[0]!.message).toBe('GET /runs/x (200): /candidates/0/id must be an integer (run schema; S)');
  });

  it('equal: bigint-aware, renders bigints as digits', () => {
    const { e, seen } = setup();
    expect(e.equal(990000000001n, 990000000001, 'id', 'S')).toBe(true);
    expect(e.equal(9007199254740993n, 9007199254740992n, 'id', 'S')).toBe(false);
    expect(seen[0]!.message).toBe('id is 9007199254740993; the spec requires 9007199254740992 (S)');
  });

  it('header: string, RegExp and predicate', () => {
    const { e, seen } = setup();
    const res = response(200, '{}', { 'x-svc-environment': 'sandbox' });
    expect(e.header(res, 'X-Svc-Environment', 'sandbox', 'S')).toBe(true);
    expect(e.header(res, 'retry-after', /^\d+$/, 'S', 'an integer number of seconds')).toBe(false);
    expect(seen[0]!.message).toBe('GET /runs/x answered header retry-after absent; the spec requires an integer number of seconds (S)');
    expect(e.header(res, 'x-svc-environment', (v) => v === undefined, 'S', 'no header')).toBe(false);
  });
});
