import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../http/types.js';
import { parseJsonLossless } from '../json/lossless.js';
import { createExpect } from './expect.js';
import type { Observation } from '../runner/results.js';

const BASE = 'http://127.0.0.1:1/v1';

function response(
  status: number,
  body: string,
  headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' },
  method = 'GET',
  path = '/runs/x',
): ApiResponse {
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
    exchange: {
      startedAt: '',
      durationMs: 1,
      request: { method, url: `${BASE}${path}`, headers: {} },
      curl: '',
    },
  };
}

function setup(
  issues: Array<{ pointer: string; keyword: string; message: string; received: string; severity?: 'warning' }> = [],
) {
  const seen: Array<Omit<Observation, 'exchange'>> = [];
  const e = createExpect({ baseUrl: BASE, observe: (o) => seen.push(o), validate: () => issues });
  return { e, seen };
}

describe('createExpect', () => {
  it('status: names request, received, required and section', () => {
    const { e, seen } = setup();
    expect(e.status(response(200, '{}', undefined, 'POST', '/runs'), 202, 'Endpoints › POST /runs (start a run)')).toBe(
      false,
    );
    expect(seen[0]!.message).toBe(
      'POST /runs answered 200; the spec requires 202 (Endpoints › POST /runs (start a run))',
    );
    expect(e.status(response(204, ''), '2xx', 'Errors')).toBe(true);
    expect(e.status(response(0, ''), [200, '4xx'], 'Errors')).toBe(false);
    expect(seen[1]!.message).toMatch(/^GET \/runs\/x got no HTTP answer/);
  });

  it('error: checks status, content type, envelope and code', () => {
    const { e, seen } = setup();
    expect(
      e.error(response(401, '{"error":"invalid_org_token","message":"m"}'), 401, 'invalid_org_token', 'Authentication'),
    ).toBe(true);
    expect(
      e.error(
        response(401, '{"error":"invalid_org_token","message":"m"}'),
        401,
        'invalid_partner_key',
        'Authentication',
      ),
    ).toBe(false);
    expect(seen.at(-1)!.message).toBe(
      'GET /runs/x answered 401 with error "invalid_org_token"; the spec requires "invalid_partner_key" (Authentication)',
    );
    expect(e.error(response(403, '{"error":"x","message":"m"}'), 401, 'invalid_partner_key', 'Authentication')).toBe(
      false,
    );
    expect(seen.at(-1)!.message).toBe(
      'GET /runs/x answered 403 with error "x"; the spec requires 401 invalid_partner_key (Authentication)',
    );
    expect(
      e.error(response(401, '{"error":"c","message":7}', { 'content-type': 'text/plain' }), 401, 'c', 'Authentication'),
    ).toBe(false);
    expect(seen.at(-2)!.message).toMatch(/content type "text\/plain"/);
    expect(seen.at(-1)).toMatchObject({ pointer: '/message', received: '7' });
  });

  it('schema: one observation per issue with pointer and received', () => {
    const { e, seen } = setup([
      { pointer: '/candidates/0/id', keyword: 'type', message: 'must be an integer', received: '"990000000001"' },
    ]);
    expect(
      e.schema({}, 'run', 'Resources and their fields › Run (response of reading a run)', response(200, '{}')),
    ).toBe(false);
    expect(seen[0]).toMatchObject({ pointer: '/candidates/0/id', received: '"990000000001"' });
    expect(seen[0]!.message).toBe(
      'GET /runs/x (200): /candidates/0/id must be an integer (run schema; Resources and their fields › Run (response of reading a run))',
    );
  });

  it('schema: a missing listed field is one warning per field, naming the reading; the value still holds', () => {
    const missing = (i: number) => ({
      pointer: `/candidates/${i}/requirements/0/evidence`,
      keyword: 'x-expected',
      message: "has no property 'evidence'",
      received: 'absent',
      severity: 'warning' as const,
    });
    const { e, seen } = setup([missing(0), missing(1)]);
    expect(
      e.schema({}, 'run', 'Resources and their fields › Run (response of reading a run)', response(200, '{}')),
    ).toBe(true);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ severity: 'warning', pointer: '/candidates/*/requirements/*/evidence' });
    expect(seen[0]!.message).toContain('/candidates/*/requirements/*/evidence is missing (2 places)');
    expect(seen[0]!.message).toContain('states it always present nowhere');
  });

  it('equal: bigint-aware, renders bigints as digits', () => {
    const { e, seen } = setup();
    expect(e.equal(990000000001n, 990000000001, 'id', 'Versioning')).toBe(true);
    expect(e.equal(9007199254740993n, 9007199254740992n, 'id', 'Versioning')).toBe(false);
    expect(seen[0]!.message).toBe('id is 9007199254740993; the spec requires 9007199254740992 (Versioning)');
  });

  it('header: string, RegExp and predicate', () => {
    const { e, seen } = setup();
    const res = response(200, '{}', { 'x-svc-environment': 'sandbox' });
    expect(e.header(res, 'X-Svc-Environment', 'sandbox', 'Endpoints › Common headers')).toBe(true);
    expect(e.header(res, 'retry-after', /^\d+$/, 'Limits', 'an integer number of seconds')).toBe(false);
    expect(seen[0]!.message).toBe(
      'GET /runs/x answered header retry-after absent; the spec requires an integer number of seconds (Limits)',
    );
    expect(e.header(res, 'x-svc-environment', (v) => v === undefined, 'Limits', 'no header')).toBe(false);
  });

  it('that and fail: the section is appended once, received and expected rendered', () => {
    const { e, seen } = setup();
    expect(e.that(true, { message: 'never', spec: 'Limits' })).toBe(true);
    expect(
      e.that(false, { message: 'count is 3; the spec requires at most 2', spec: 'Limits', expected: 2n, received: 3 }),
    ).toBe(false);
    expect(seen[0]).toEqual({
      message: 'count is 3; the spec requires at most 2 (Limits)',
      spec: 'Limits',
      expected: '2',
      received: '3',
    });
    expect(e.fail({ message: 'no answer', spec: 'Events', pointer: '/x' })).toBe(false);
    expect(seen[1]).toEqual({ message: 'no answer (Events)', spec: 'Events', pointer: '/x' });
  });

  it('warn: reading and other reading before the section, severity warning', () => {
    const { e, seen } = setup();
    expect(e.warn(false, { message: 'odd', spec: 'Events', reading: 'r', otherReading: 'o' })).toBe(false);
    expect(seen[0]).toEqual({
      severity: 'warning',
      message: 'odd (read as: r; the other reading: o) (Events)',
      spec: 'Events',
    });
  });

  it('field: the value at a pointer equals or satisfies, with pointer, expected and received', () => {
    const { e, seen } = setup();
    const res = response(
      202,
      '{"sandbox":{"fixture":"cert-slow"},"ids":[990000000001,9007199254740993],"a/b":{"~":1}}',
      undefined,
      'POST',
      '/runs',
    );
    const SB = 'Endpoints › Sandbox behaviour' as const;
    expect(e.field(res, '/sandbox/fixture', 'cert-slow', SB)).toBe(true);
    expect(e.field(res, '/ids/1', 9007199254740993n, SB)).toBe(true);
    expect(e.field(res, '/a~1b/~0', 1, SB)).toBe(true);
    expect(e.field(res, '/ids/0', (v) => typeof v === 'bigint' || typeof v === 'number', SB, 'an integer')).toBe(true);
    expect(e.field(res, '/sandbox/fixture', 'cert-notices-all', SB)).toBe(false);
    expect(seen[0]).toEqual({
      message:
        'POST /runs answered /sandbox/fixture "cert-slow"; the spec requires "cert-notices-all" (Endpoints › Sandbox behaviour)',
      spec: SB,
      pointer: '/sandbox/fixture',
      expected: '"cert-notices-all"',
      received: '"cert-slow"',
    });
    expect(e.field(res, '/missing/0', (v) => v !== undefined, SB, 'a value')).toBe(false);
    expect(seen[1]).toMatchObject({
      message: 'POST /runs answered /missing/0 absent; the spec requires a value (Endpoints › Sandbox behaviour)',
      received: '(absent)',
    });
  });

  it('some: an item matches, else "<what> has no item <description>" with the items received', () => {
    const { e, seen } = setup();
    const items = [{ code: 'a' }, { code: 'b' }];
    expect(
      e.some(items, (i) => i.code === 'b', { what: 'rejected[]', description: 'with code b', spec: 'Errors' }),
    ).toBe(true);
    expect(
      e.some(
        items,
        (i) => i.code === 'c',
        { what: 'rejected[]', description: 'with code c', spec: 'Errors', pointer: '/rejected' },
        response(422, '{}'),
      ),
    ).toBe(false);
    expect(seen[0]).toEqual({
      message: 'rejected[] has no item with code c; it holds [{"code":"a"},{"code":"b"}] (Errors)',
      spec: 'Errors',
      pointer: '/rejected',
      expected: 'an item with code c',
      received: '[{"code":"a"},{"code":"b"}]',
    });
    expect(
      e.some([], () => true, { what: 'warnings[]', description: 'at all', spec: 'Errors', received: 'none' }),
    ).toBe(false);
    expect(seen[1]!.message).toBe('warnings[] has no item at all; it is empty (Errors)');
  });
});
