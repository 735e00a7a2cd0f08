// Every answer the embedded reference sandbox gives during a certification is described by the OpenAPI
// description: its path, method and status match a response of the document, and its body validates
// against that response's schema (ajv, 2020-12). An answer the document does not cover fails the test,
// except the answers to the requests one check sends outside v1 on purpose (OUTSIDE_V1), which are held
// to what the spec says of every non-2xx answer: the error envelope.

import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '../src/openapi/build-openapi.js';
import type { RecordedExchange } from '../src/http/recorded-exchange.js';
import type { RunResult } from '../src/runner/results.js';
import { certifySandbox } from './support/certify-sandbox.js';
import { OpenApiResponses, type Answer } from './openapi-responses.js';

/**
 * Recorded bodies are redacted: an org token shows as its first 12 characters and "…" (src/config/redact.ts).
 * Such a preview stands for a token of the spec's format, so it is put back in that format before validation.
 */
const PREVIEW = /"(sot_|spk_live_)[0-9a-f]{0,12}…"/g;
const STAND_IN = (prefix: string): string => `"${prefix}${'0'.repeat(48)}"`;

/**
 * conventions.unrouted-error-envelope probes a path and a method v1 does not have: no operation of the
 * document can describe them, and the spec asks only that "every non-2xx response has a JSON envelope".
 * Named by check and exchange label, so nothing else escapes matching; each must be seen.
 */
const OUTSIDE_V1 = [
  { check: 'conventions.unrouted-error-envelope', label: 'unknown path' },
  { check: 'conventions.unrouted-error-envelope', label: 'wrong method' },
];
const ENVELOPE_POINTER = '/components/schemas/ErrorEnvelope';

type LabelledAnswer = Answer & { check: string; label: string | undefined };

/** One answer per exchange: shared setup exchanges are attached to every check that awaited them. */
function answersOf(checks: readonly { id: string; exchanges: readonly RecordedExchange[] }[]): {
  answers: LabelledAnswer[];
  restored: number;
  truncated: number;
} {
  const seen = new Set<string>();
  const answers: LabelledAnswer[] = [];
  let restored = 0;
  let truncated = 0;
  for (const { id, x } of checks.flatMap((c) => c.exchanges.map((x) => ({ id: c.id, x })))) {
    if (!x.response) continue; // no answer (transport error): nothing to validate
    const key = `${x.startedAt} ${x.request.method} ${x.request.url} ${x.response.status} ${x.response.body?.length ?? -1}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (x.response.bodyTruncated) truncated++;
    const body = x.response.body?.replace(PREVIEW, (_m, prefix: string) => (restored++, STAND_IN(prefix)));
    const contentType = Object.entries(x.response.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
    answers.push({
      method: x.request.method,
      url: x.request.url,
      status: x.response.status,
      contentType,
      body,
      check: id,
      label: x.label,
    });
  }
  return { answers, restored, truncated };
}

const doc = buildOpenApi();

/** Every answer of a certification judged against the description. */
function judgeRun(run: RunResult, responses: OpenApiResponses) {
  const { answers, restored, truncated } = answersOf(run.checks);
  const basePath = new URL(run.target.baseUrl).pathname.replace(/\/$/, '');
  const failures: string[] = [];
  const operations = new Set<string>();
  const statuses = new Set<string>();
  const outside: string[] = [];
  for (const answer of answers) {
    const probe = OUTSIDE_V1.find((p) => p.check === answer.check && p.label === answer.label);
    if (probe) {
      const envelope = responses.validatorAt(ENVELOPE_POINTER);
      if (answer.status >= 200 && answer.status < 300)
        failures.push(`${probe.check} (${probe.label}): answered ${answer.status}`);
      else if (!envelope(JSON.parse(answer.body ?? 'null')))
        failures.push(`${probe.check} (${probe.label}): ${answer.status} without the error envelope`);
      else outside.push(probe.label);
      continue;
    }
    const verdict = responses.judge(answer, basePath);
    if (verdict.ok) {
      operations.add(verdict.operation);
      statuses.add(`${verdict.operation} ${answer.status}`);
    } else failures.push(verdict.reason);
  }
  return { answers, restored, truncated, failures, outside, operations, statuses };
}

describe('the sandbox answers as the OpenAPI description says', () => {
  it('every answer of a full certification (with --exhaust-limits) matches an operation and status and validates', async () => {
    const run = await certifySandbox({ exhaustLimits: true, timeScale: 60 });
    const { answers, restored, truncated, failures, outside, operations, statuses } = judgeRun(
      run,
      new OpenApiResponses(doc),
    );
    console.log(
      `openapi: ${answers.length - failures.length - outside.length} answers validated across ${operations.size} operations (${statuses.size} operation+status pairs), ${outside.length} probes outside v1 against the error envelope; ${restored} redacted secrets restored to format, ${truncated} truncated bodies, ${failures.length} failures`,
    );
    expect(truncated).toBe(0);
    expect([...new Set(outside)].sort()).toEqual(OUTSIDE_V1.map((p) => p.label).sort());
    expect([...new Set(failures)].sort()).toEqual([]);
    // A certification exercises every operation; a smaller figure means the matching went wrong.
    expect(operations.size).toBe(
      Object.values(doc.paths as Record<string, object>).reduce((n, p) => n + Object.keys(p).length, 0),
    );
  }, 300_000);

  it('a sandbox answering off the description fails it (the negative control: a candidate id sent as a string)', async () => {
    const run = await certifySandbox({
      timeScale: 60,
      ids: ['runs-read.candidate-id-int64'],
      faults: ['runs-read.candidate-id-string'],
    });
    const { failures } = judgeRun(run, new OpenApiResponses(doc));
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.every((f) => f.startsWith('GET /runs/{run_id} 200 (200): /candidates/'))).toBe(true);
  }, 120_000);
});
