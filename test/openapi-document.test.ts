// The OpenAPI description against the spec it describes and the schemas it is built from: every
// endpoint, header and error code of spec/partner-api-v1.md is in it, sandbox-only parts are marked,
// every example validates against its schema, components come from schemas/ (no copy), and the JSON
// and YAML outputs are the same document, the same bytes on every call, in-process and from the CLI.

import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { API_SCHEMA_NAMES, componentName, componentSchemas } from '../src/openapi/component-schemas.js';
import { buildOpenApi } from '../src/openapi/build-openapi.js';
import { renderOpenApi } from '../src/openapi/render-openapi.js';
import { OpenApiResponses } from './openapi-responses.js';

const ROOT = resolve(import.meta.dirname, '..');
const SPEC = readFileSync(join(ROOT, 'spec', 'partner-api-v1.md'), 'utf8');
const doc = buildOpenApi();
const responses = new OpenApiResponses(doc);

/** The document read as plain JSON (its shape is asserted, not typed). */
type Json = Record<string, any>;
const paths = doc.paths as Json;
const operations: { path: string; method: string; op: Json }[] = Object.entries(paths).flatMap(([path, item]) =>
  Object.entries(item as Json).map(([method, op]) => ({ path, method, op: op as Json })),
);
const opByKey = (key: string): Json => operations.find((o) => o.op.operationId === key)!.op;

/** The text of the spec between two headings. */
function section(from: string, to: string): string {
  const start = SPEC.indexOf(from);
  return SPEC.slice(start, SPEC.indexOf(to, start));
}

/** Table rows of a piece of the spec, as trimmed cells (separator rows dropped). */
function rows(text: string): string[][] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('|') && !/^\|[\s|-]+\|$/.test(l))
    .map((l) =>
      l
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
}

const codesIn = (cell: string): string[] => [...cell.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!);

/** The spec's name of an endpoint in "Errors by endpoint" → operationId. */
const ENDPOINT_NAMES: Record<string, string> = {
  'POST /activations/redeem': 'redeem',
  'POST /users': 'users',
  'POST /jobs': 'jobs',
  'POST /runs': 'startRun',
  'GET /runs/{run_id}': 'readRun',
  reveal: 'reveal',
  decisions: 'decisions',
};

/**
 * `not_found` is listed among the sandbox-only errors, but it is production's answer to the sandbox route:
 * the route (the operation) carries the sandbox-only mark, not that answer.
 */
const ANSWERED_BY_PRODUCTION = new Set(['not_found']);

/**
 * Every (status, code) of the spec's Errors part: cross-cutting, by endpoint, sandbox-only, simulated. A
 * code is sandbox-only when the spec lists it only under Sandbox-only errors or the simulated errors.
 */
function specErrorCodes(): { status: string; code: string; endpoint?: string; sandboxOnly: boolean }[] {
  const out: { status: string; code: string; endpoint?: string; part: string }[] = [];
  const errors = section('## Errors', '### Idempotency');
  let endpoint: string | undefined;
  let part = '';
  for (const line of errors.split('\n')) {
    if (line.startsWith('### ') || line.startsWith('Simulated errors')) part = line;
    const [cells] = rows(line);
    const status = cells?.find((c) => /^\d{3}$/.test(c));
    const codes = cells?.find((c) => /^`[a-z_]+`(,\s*`[a-z_]+`)*$/.test(c));
    if (!cells || !status || !codes) continue;
    const byEndpoint = part.startsWith('### Errors by endpoint');
    if (byEndpoint && cells[0]) endpoint = cells[0].replace(/`/g, '');
    for (const code of codesIn(codes)) out.push({ status, code, ...(byEndpoint ? { endpoint } : {}), part });
  }
  const sandboxParts = (p: string): boolean => p.startsWith('### Sandbox-only') || p.startsWith('Simulated');
  return out.map(({ part: _part, ...e }) => ({
    ...e,
    sandboxOnly:
      !ANSWERED_BY_PRODUCTION.has(e.code) && out.filter((x) => x.code === e.code).every((x) => sandboxParts(x.part)),
  }));
}

describe('the OpenAPI description covers the spec', () => {
  it('has every endpoint of Endpoints › Summary, the sandbox route marked', () => {
    const summary = rows(section('### Summary', '### POST /activations/redeem')).slice(1);
    expect(summary.length).toBe(8);
    for (const [method, path, purpose] of summary) {
      const op = paths[path!.replace(/`/g, '')]?.[method!.toLowerCase()];
      expect(op, `${method} ${path}`).toBeDefined();
      expect(op['x-sandbox-only'] === true, `${method} ${path} sandbox-only mark`).toBe(
        purpose!.startsWith('sandbox only'),
      );
    }
    expect(operations.length).toBe(summary.length);
  });

  it('has every error code of Errors with its status, on the endpoints the spec names, with an example each', () => {
    const codes = specErrorCodes();
    expect(codes.length).toBeGreaterThanOrEqual(27);
    expect([...new Set(codes.filter((c) => c.sandboxOnly).map((c) => c.code))].sort()).toEqual([
      'internal_error',
      'invalid_request',
      'sandbox_limit',
      'sandbox_run_quota',
      'unknown_fixture',
      'webhook_not_configured',
    ]);
    for (const e of codes) {
      const ops = e.endpoint ? [opByKey(ENDPOINT_NAMES[e.endpoint]!)] : operations.map((o) => o.op);
      const carrying = ops.filter((op) => op.responses[e.status]?.content['application/json'].examples[e.code]);
      expect(carrying.length, `${e.status} ${e.code} on ${e.endpoint ?? 'some operation'}`).toBeGreaterThan(0);
      for (const op of carrying) {
        const example = op.responses[e.status].content['application/json'].examples[e.code];
        expect(example.value.error, `${op.operationId} ${e.status} ${e.code}`).toBe(e.code);
        if (e.sandboxOnly)
          expect(example['x-sandbox-only'], `${op.operationId} ${e.code} marked sandbox-only`).toBe(true);
      }
    }
    // Cross-cutting codes are on every operation (the org token ones on every one that sends it).
    const crossCutting = ['invalid_partner_key', 'partner_disabled', 'rate_limited', 'rate_limit_unavailable'];
    const everywhere = codes.filter((x) => !x.endpoint && crossCutting.includes(x.code));
    // Each of them is found in the spec's table: the loop below would pass over an empty list.
    expect(new Set(everywhere.map((e) => e.code))).toEqual(new Set(crossCutting));
    expect(operations.length).toBeGreaterThan(0);
    for (const e of everywhere) {
      for (const { op } of operations)
        expect(
          op.responses[e.status]?.content['application/json'].examples[e.code],
          `${op.operationId} ${e.code}`,
        ).toBeDefined();
    }
  });

  it('has every header of the spec: common, sandbox request headers (marked), response headers, the webhook signature', () => {
    const schemes = (doc.components as Json).securitySchemes as Json;
    const parameters = (doc.components as Json).parameters as Json;
    const headerParams = Object.values(parameters).filter((p: Json) => p.in === 'header') as Json[];
    const common = rows(section('### Common headers', '### Summary'))
      .slice(1)
      .map((r) => r[0]!.replace(/`/g, ''));
    expect(common).toEqual(['x-partner-key', 'x-svc-org', 'x-svc-lang', 'Content-Type']);
    expect(Object.values(schemes).map((s: Json) => s.name)).toEqual(['x-partner-key', 'x-svc-org']);
    expect(headerParams.map((p) => p.name)).toContain('x-svc-lang');
    // Content-Type application/json on every POST: the request bodies' media type.
    const posts = operations.filter((o) => o.method === 'post');
    expect(posts.length).toBeGreaterThan(0);
    for (const { method, op } of posts)
      expect(Object.keys(op.requestBody.content), `${method} ${op.operationId}`).toEqual(['application/json']);
    for (const name of ['x-svc-sandbox-simulate', 'x-svc-sandbox-reveal-price']) {
      expect(SPEC).toContain(`\`${name}\``);
      expect(headerParams.find((p) => p.name === name)?.['x-sandbox-only'], name).toBe(true);
    }
    expect(opByKey('readRun').parameters).toContainEqual({ $ref: '#/components/parameters/SandboxRevealPrice' });
    const headers = (doc.components as Json).headers as Json;
    expect(headers.Environment['x-sandbox-only']).toBe(true);
    for (const { op } of operations)
      for (const [status, r] of Object.entries(op.responses as Json))
        expect((r as Json).headers['x-svc-environment'], `${op.operationId} ${status}`).toEqual({
          $ref: '#/components/headers/Environment',
        });
    expect(opByKey('startRun').responses['429'].headers['Retry-After']).toEqual({
      $ref: '#/components/headers/RetryAfter',
    });
    const webhooks = doc.webhooks as Json;
    expect(Object.keys(webhooks)).toEqual(
      rows(section('## Events', 'Envelope (present'))
        .slice(1)
        .map((r) => r[0]!.replace(/`/g, '')),
    );
    expect(Object.keys(webhooks).length).toBeGreaterThan(0);
    for (const w of Object.values(webhooks) as Json[])
      expect(w.post.parameters.map((p: Json) => p.name)).toEqual(['x-svc-signature', 'x-svc-environment']);
  });

  it('names every requirement rejection and warning code, every JobIssue code and every fixture, beside the responses that carry them', () => {
    const codes = (from: string, to: string): string[] =>
      rows(section(from, to))
        .slice(1)
        .map((r) => r[0]!.replace(/`/g, ''));
    const rejections = codes('Rejection codes (`422', 'Warning codes (`202');
    const warnings = codes('Warning codes (`202', 'A message and suggestion');
    const jobIssues = codesIn(rows(section('### JobIssue', '### Run (response')).find((r) => r[0] === '`code`')![2]!);
    const fixtures = rows(section('| Fixture | Run read returns |', '## Authentication'))
      .slice(1)
      .map((r) => r[0]!.replace(/`/g, ''));
    expect([rejections.length, warnings.length, jobIssues.length, fixtures.length]).toEqual([6, 3, 3, 7]);
    const startRun = opByKey('startRun');
    const rejected = startRun.responses['422'].description as string;
    for (const code of rejections) expect(rejected, code).toContain(`\`${code}\``);
    for (const code of warnings) expect(startRun.responses['202'].description, code).toContain(`\`${code}\``);
    for (const code of jobIssues) expect(opByKey('jobs').responses['422'].description, code).toContain(`\`${code}\``);
    for (const name of fixtures) expect(startRun.description, name).toContain(`\`${name}\``);
    expect(startRun.responses['422'].content['application/json'].examples.unknown_fixture.value.fixtures).toEqual(
      fixtures,
    );
  });

  it('marks the properties only the sandbox sends', () => {
    const schemas = (doc.components as Json).schemas as Json;
    for (const name of ['RunStartResponse', 'Run', 'RevealResult'])
      expect(schemas[name].properties.sandbox['x-sandbox-only'], name).toBe(true);
    expect(JSON.stringify(schemas.Candidate)).not.toContain('x-sandbox-only');
  });

  it('gives the success statuses the spec leaves open ("Success status code: not shown") as 2XX, the others exactly', () => {
    const success = (key: string): string[] => Object.keys(opByKey(key).responses).filter((s) => s.startsWith('2'));
    expect(['users', 'jobs', 'decisions'].map(success)).toEqual([['2XX'], ['2XX'], ['2XX']]);
    expect(['redeem', 'startRun', 'readRun', 'reveal', 'testWebhook'].map(success)).toEqual([
      ['200'],
      ['202'],
      ['200'],
      ['200'],
      ['202'],
    ]);
  });
});

describe('examples', () => {
  const esc = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');
  /** Every example of the document with the JSON pointer of the schema it illustrates. */
  function examples(): { where: string; schema: string; value: unknown }[] {
    const out: { where: string; schema: string; value: unknown }[] = [];
    const media = (base: string, m: Json): void => {
      if (m.example !== undefined) out.push({ where: base, schema: `${base}/schema`, value: m.example });
      for (const [name, e] of Object.entries((m.examples ?? {}) as Json))
        out.push({ where: `${base} ${name}`, schema: `${base}/schema`, value: (e as Json).value });
    };
    for (const { path, method, op } of operations) {
      const base = `/paths/${esc(path)}/${method}`;
      if (op.requestBody)
        media(`${base}/requestBody/content/application~1json`, op.requestBody.content['application/json']);
      for (const [status, r] of Object.entries(op.responses as Json))
        if ((r as Json).content)
          media(`${base}/responses/${status}/content/application~1json`, (r as Json).content['application/json']);
    }
    for (const [event, w] of Object.entries(doc.webhooks as Json))
      media(
        `/webhooks/${event}/post/requestBody/content/application~1json`,
        (w as Json).post.requestBody.content['application/json'],
      );
    return out;
  }

  it('every example validates against the schema it illustrates', () => {
    const all = examples();
    expect(all.length).toBeGreaterThan(100);
    const invalid = all.filter((e) => !responses.validatorAt(e.schema)(e.value)).map((e) => e.where);
    expect(invalid).toEqual([]);
  });

  it('the validation catches a wrong value (the negative control)', () => {
    const schema = '/paths/~1runs~1{run_id}/get/responses/200/content/application~1json/schema';
    const example = opByKey('readRun').responses['200'].content['application/json'].example as Json;
    expect(responses.validatorAt(schema)(example)).toBe(true);
    expect(
      responses.validatorAt(schema)({ ...example, candidates: [{ ...example.candidates[0], verdict: 'maybe' }] }),
    ).toBe(false);
    expect(
      responses.validatorAt(schema)({ ...example, candidates: [{ ...example.candidates[0], id: '990000000001' }] }),
    ).toBe(false);
  });
});

describe('matching answers to the description (test/openapi-responses.ts)', () => {
  const base = 'http://127.0.0.1:1/v1';
  const run = '3f1c2a7e-5b8d-4e3a-9c21-7d5e0b6a4f10';
  const answer = (method: string, path: string, status: number, body: unknown) => ({
    method,
    url: `${base}${path}`,
    status,
    contentType: 'application/json; charset=utf-8',
    body: JSON.stringify(body),
  });

  it('accepts a described answer and refuses a wrong body, a status no response covers, an unknown path or method', () => {
    const read = opByKey('readRun').responses['200'].content['application/json'].example;
    expect(responses.judge(answer('GET', `/runs/${run}`, 200, read), '/v1')).toMatchObject({
      ok: true,
      responseKey: '200',
    });
    expect(
      responses.judge(answer('GET', `/runs/${run}`, 404, { error: 'run_not_found', message: 'No.' }), '/v1'),
    ).toMatchObject({ ok: true, responseKey: '404' });
    expect(
      responses.judge(answer('GET', `/runs/${run}`, 418, { error: 'teapot', message: 'No.' }), '/v1'),
    ).toMatchObject({ ok: true, responseKey: '4XX' });
    expect(responses.judge(answer('GET', `/runs/${run}`, 404, { error: 'run_not_found' }), '/v1').ok).toBe(false);
    expect(responses.judge(answer('GET', `/runs/${run}`, 200, { ...read, progress: undefined }), '/v1').ok).toBe(false);
    expect(responses.judge(answer('GET', `/runs/${run}`, 201, read), '/v1').ok).toBe(false);
    expect(
      responses.judge(answer('DELETE', `/runs/${run}`, 404, { error: 'not_found', message: 'No.' }), '/v1').ok,
    ).toBe(false);
    expect(responses.judge(answer('GET', '/nowhere', 404, { error: 'not_found', message: 'No.' }), '/v1').ok).toBe(
      false,
    );
    expect(responses.judge({ ...answer('GET', `/runs/${run}`, 200, read), contentType: 'text/html' }, '/v1').ok).toBe(
      false,
    );
  });
});

describe('one source: the components are the schemas of schemas/', () => {
  it("has a component for every schema of the API and none for the tool's own results", () => {
    const components = (doc.components as Json).schemas as Json;
    expect(Object.keys(components)).toEqual(API_SCHEMA_NAMES.map(componentName));
    expect(Object.keys(components)).not.toContain('Results');
    expect(JSON.stringify(doc)).not.toMatch(/"int64":true|utc-date-time|"\$id"/);
  });

  it('reads the schemas at build time: a change to a schema file shows in the description', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-openapi-schemas-'));
    cpSync(join(ROOT, 'schemas'), dir, { recursive: true });
    const file = join(dir, 'candidate.schema.json');
    const schema = JSON.parse(readFileSync(file, 'utf8')) as Json;
    schema.properties.zz_probe = { type: 'string' };
    writeFileSync(file, JSON.stringify(schema));
    expect(componentSchemas(dir).Candidate!.properties).toHaveProperty('zz_probe');
    expect(componentSchemas().Candidate!.properties).not.toHaveProperty('zz_probe');
  });
});

describe('output', () => {
  it('JSON and YAML describe the same document, the same bytes on every call', () => {
    const json = renderOpenApi('json');
    const yaml = renderOpenApi('yaml');
    expect(JSON.parse(json)).toEqual(doc);
    expect(parseYaml(yaml)).toEqual(JSON.parse(json));
    expect(renderOpenApi('json')).toBe(json);
    expect(renderOpenApi('yaml')).toBe(yaml);
  });

  it('svc-certify openapi prints them (YAML by default), refuses another format with exit 2', async () => {
    const bin = join(ROOT, 'bin', 'svc-certify.js');
    const run = promisify(execFile);
    const opts = { cwd: tmpdir(), maxBuffer: 16 * 1024 * 1024 };
    expect((await run(process.execPath, [bin, 'openapi'], opts)).stdout).toBe(renderOpenApi('yaml'));
    expect((await run(process.execPath, [bin, 'openapi', '--format', 'json'], opts)).stdout).toBe(
      renderOpenApi('json'),
    );
    const bad = await run(process.execPath, [bin, 'openapi', '--format', 'xml'], opts).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(bad).toMatchObject({ code: 2 });
    expect((bad as { stderr: string }).stderr).toMatch(/yaml, json/);
  });
});
