import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_REPORTER, renderJson } from '../src/report/json.js';
import { resolveSharedExchanges } from '../src/report/shared-exchanges.js';
import { capPassedEvidence } from '../src/runner/evidence-caps.js';
import { CONTEXT_BODY_CHARS, PASSED_BODY_CHARS } from '../src/runner/limits.js';
import type { RunResult } from '../src/runner/results.js';
import {
  makeIncompleteRunResult,
  makeInterruptedRunResult,
  makeRunResult,
  makeSelectionRunResult,
  makeWarningRunResult,
} from './report-fixtures.js';
import { renderInTwoWorlds } from './support/determinism.js';
import { redacted } from './support/redacted.js';
import { writeReports } from '../src/report/finish-certification.js';

const SCHEMA = new URL('../schemas/results.schema.json', import.meta.url);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'report-json-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** results.json as writeReports has it written: the bodies cut once, before any reporter reads the result. */
function cappedJson(result: RunResult): string {
  return renderJson(capPassedEvidence(result));
}

describe('json reporter', () => {
  it('writes the RunResult into the report dir, 2-space indented with each exchange on one line (passed bodies cut)', async () => {
    const result = makeRunResult();
    const reportDir = join(dir, 'a', 'b');
    await writeReports([JSON_REPORTER.create()], redacted(result), { reporters: ['json'], reportDir });
    const text = await readFile(join(reportDir, 'results.json'), 'utf8');
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(capPassedEvidence(result))));
    expect(text.startsWith('{\n  "certification": ')).toBe(true);
    const exchanges = capPassedEvidence(result).checks.flatMap((c) => c.exchanges);
    expect(exchanges.length).toBeGreaterThan(0);
    for (const exchange of exchanges) expect(text).toContain(`\n        ${JSON.stringify(exchange)}`);
  });

  it("keeps no curl in a passed or skipped check's exchanges (its request is there); a failed check keeps its curl", () => {
    const written = JSON.parse(cappedJson(makeRunResult())) as RunResult;
    const passed = written.checks.filter((c) => c.status === 'passed').flatMap((c) => c.exchanges);
    const failed = written.checks.filter((c) => c.status === 'failed').flatMap((c) => c.exchanges);
    expect(passed.length).toBeGreaterThan(0);
    expect(passed.every((e) => e.curl === undefined)).toBe(true);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((e) => typeof e.curl === 'string' && e.curl.startsWith('curl '))).toBe(true);
  });

  it(`cuts a passed check's bodies to ${PASSED_BODY_CHARS} characters with size and SHA-256; a failed check keeps its whole body`, () => {
    const result = makeRunResult();
    const passed = result.checks.find((c) => c.status === 'passed' && c.exchanges.some((e) => e.response))!;
    const failed = result.checks.find((c) => c.status === 'failed' && c.exchanges.some((e) => e.response))!;
    const big = `{"items":[${'"é",'.repeat(5000)}"end"]}`;
    for (const c of [passed, failed]) c.exchanges.find((e) => e.response)!.response!.body = big;
    const written = JSON.parse(cappedJson(result)) as RunResult;
    const cut = written.checks.find((c) => c.id === passed.id)!.exchanges.find((e) => e.response)!.response!;
    expect(cut.body).toBe(big.slice(0, PASSED_BODY_CHARS));
    expect(cut).toMatchObject({
      bodyTruncated: true,
      bodyBytes: Buffer.byteLength(big),
      bodySha256: createHash('sha256').update(big).digest('hex'),
    });
    expect(written.checks.find((c) => c.id === failed.id)!.exchanges.find((e) => e.response)!.response!.body).toBe(big);
  });

  it(`keeps a failed check's cited exchange whole and cuts its other exchanges to ${CONTEXT_BODY_CHARS} characters, curl kept`, () => {
    const result = makeRunResult();
    const failed = result.checks.find((c) => c.status === 'failed' && c.exchanges.some((e) => e.response))!;
    const big = `{"items":[${'"x",'.repeat(5000)}"end"]}`;
    const cited = failed.exchanges.find((e) => e.response)!;
    cited.response!.body = big;
    const context = { ...structuredClone(cited), index: failed.exchanges.length, curl: 'curl context' };
    failed.exchanges.push(context);
    failed.observations = [{ message: 'wrong', spec: 'Errors', exchange: cited.index }];
    const written = JSON.parse(cappedJson(result)) as RunResult;
    const [kept, cut] = [cited.index, context.index].map((i) =>
      written.checks.find((c) => c.id === failed.id)!.exchanges.find((e) => e.index === i)!,
    );
    expect(kept!.response!.body).toBe(big);
    expect(cut!.response!.body).toBe(big.slice(0, CONTEXT_BODY_CHARS));
    expect(cut!.response).toMatchObject({ bodyTruncated: true, bodyBytes: Buffer.byteLength(big) });
    expect(cut!.curl).toBe('curl context');
  });

  it('turns a stray bigint into a decimal string instead of throwing', () => {
    const result = makeRunResult();
    result.config['maxSpendCredits'] = 9007199254740993n;
    expect(JSON.parse(renderJson(result)).config.maxSpendCredits).toBe('9007199254740993');
  });

  it('is deterministic: the same result renders the same under another clock, zone and random source', async () => {
    const [a, b] = await renderInTwoWorlds(() => renderJson(makeRunResult()));
    expect(a).toBe(b);
  });

  it('carries the fields other tools read (structural check)', () => {
    const parsed = JSON.parse(renderJson(makeRunResult())) as RunResult;
    expect(Object.keys(parsed.summary).sort()).toEqual([
      'error',
      'expected',
      'failed',
      'passed',
      'skipped',
      'total',
      'warning',
    ]);
    expect(parsed.certification).toBe('run');
    for (const check of parsed.checks) {
      expect(typeof check.id).toBe('string');
      expect(typeof check.title).toBe('string');
      expect(typeof check.suite).toBe('string');
      expect(Array.isArray(check.spec)).toBe(true);
      expect(['passed', 'failed', 'skipped', 'error', 'warning']).toContain(check.status);
      expect(typeof check.message).toBe('string');
    }
  });

  it('validates against schemas/results.schema.json', async () => {
    const { Ajv2020 } = await import('ajv/dist/2020.js');
    const addFormats = (await import('ajv-formats')).default as unknown as (ajv: InstanceType<typeof Ajv2020>) => void;
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(JSON.parse(readFileSync(SCHEMA, 'utf8')) as object);
    const ok = validate(JSON.parse(renderJson(makeRunResult())));
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).toEqual([]);
    expect(ok).toBe(true);
    // A warning: status `warning`, summary.warning, an observation with severity `warning`.
    const warned = JSON.parse(renderJson(makeWarningRunResult())) as RunResult;
    expect(validate(warned), JSON.stringify(validate.errors, null, 2)).toBe(true);
    expect(warned.summary.warning).toBe(1);
    expect(warned.checks.find((c) => c.status === 'warning')?.observations[0]?.severity).toBe('warning');
    // Each verdict, with what is missing, the signal, the selection and the skip kinds.
    for (const result of [makeIncompleteRunResult(), makeInterruptedRunResult(), makeSelectionRunResult()]) {
      expect(
        validate(JSON.parse(renderJson(result))),
        `${result.verdict}: ${JSON.stringify(validate.errors, null, 2)}`,
      ).toBe(true);
    }
    // …and the schema refuses a status it does not know.
    const bogus = JSON.parse(renderJson(makeWarningRunResult())) as { checks: Array<{ status: string }> };
    bogus.checks[0]!.status = 'warned';
    expect(validate(bogus)).toBe(false);
  });
});

describe('results.json writes a repeated exchange once', () => {
  function withSharedSetup(): RunResult {
    const result = makeRunResult();
    const failed = result.checks.find((c) => c.status === 'failed' && c.exchanges.length > 0)!;
    const passed = result.checks.filter((c) => c.status === 'passed');
    // A shared setup exchange every check waited for: the first check's copy, then one in each passed check.
    const setup = structuredClone(capPassedEvidence(result).checks.find((c) => c.id === passed[0]!.id)!.exchanges[0]!);
    return {
      ...result,
      checks: result.checks.map((c) =>
        c.status === 'passed' || c === failed ? { ...c, exchanges: [...c.exchanges, structuredClone(setup)] } : c,
      ),
    };
  }

  it("a passed check's copy of an earlier exchange is a reference; reading the file puts the copy back", async () => {
    const result = withSharedSetup();
    const text = cappedJson(result);
    const data = JSON.parse(text) as { checks: Array<{ status: string; exchanges: unknown[] }> };
    const refs = data.checks.flatMap((c) =>
      c.exchanges.filter((e) => typeof e === 'object' && e !== null && 'sameAs' in e),
    );
    expect(refs.length).toBeGreaterThan(0);
    // Only passed and skipped checks refer; a failed check keeps its evidence whole.
    for (const c of data.checks)
      if (c.status === 'failed') expect(c.exchanges.every((e) => !('sameAs' in (e as object)))).toBe(true);
    // The schema accepts it, and the reader gives back what was certified.
    const { validateAgainst } = await import('../src/schema/validator.js');
    expect(validateAgainst('results', data)).toEqual([]);
    const read = resolveSharedExchanges(JSON.parse(text) as RunResult);
    expect(read).toEqual(JSON.parse(`${JSON.stringify(capPassedEvidence(result))}`));
    // Written again from what was read: the same bytes (svc-certify report re-renders byte for byte).
    expect(renderJson(read)).toBe(text);
    expect(text.length).toBeLessThan(`${JSON.stringify(capPassedEvidence(result), null, 2)}\n`.length);
  });

  it('a reference to no earlier exchange is refused, naming it', () => {
    const data = JSON.parse(renderJson(makeRunResult())) as RunResult;
    const bad = {
      ...data,
      checks: data.checks.map((c, i) =>
        i === 0 ? { ...c, exchanges: [...c.exchanges, { sameAs: { check: 5, exchange: 0 } }] } : c,
      ),
    };
    expect(() => resolveSharedExchanges(bad as unknown as RunResult)).toThrowError(
      /^checks\[0\]\.exchanges\[\d+\] refers to checks\[5\]\.exchanges\[0\], which is no earlier exchange$/,
    );
  });
});
