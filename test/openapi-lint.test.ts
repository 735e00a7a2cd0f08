// The description passes `@redocly/cli lint` with the rule set of redocly.yaml (recommended, two stated
// changes), in both formats, with 0 errors and 0 warnings; a broken copy is caught (the negative control).

import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '../src/openapi/build-openapi.js';
import { renderOpenApi } from '../src/openapi/render-openapi.js';

const ROOT = resolve(import.meta.dirname, '..');
const REDOCLY = join(ROOT, 'node_modules', '.bin', 'redocly');

interface LintResult {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; message: string }[];
}

/** Lints one file in a temp folder; the JSON report on stdout (exit 1 on errors is a result, not a failure). */
function lint(name: string, text: string): Promise<LintResult> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-openapi-lint-'));
  const file = join(dir, name);
  writeFileSync(file, text);
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  return new Promise((done, fail) => {
    execFile(
      REDOCLY,
      ['lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format', 'json'],
      { cwd: dir, env, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        try {
          done(JSON.parse(stdout) as LintResult);
        } catch {
          fail(new Error(`redocly lint gave no JSON report (${error?.message ?? 'exit 0'}): ${stderr.slice(-2000)}`));
        }
      },
    );
  });
}

const summary = (r: LintResult): string[] => r.problems.map((p) => `${p.ruleId}: ${p.message}`);

describe('@redocly/cli lint (redocly.yaml)', () => {
  it('passes with 0 errors and 0 warnings, as YAML and as JSON', async () => {
    const [yaml, json] = await Promise.all([
      lint('partner-api-v1.yaml', renderOpenApi('yaml')),
      lint('partner-api-v1.json', renderOpenApi('json')),
    ]);
    console.log(
      `redocly lint: yaml ${yaml.totals.errors} errors, ${yaml.totals.warnings} warnings; json ${json.totals.errors} errors, ${json.totals.warnings} warnings`,
    );
    expect(summary(yaml)).toEqual([]);
    expect(summary(json)).toEqual([]);
    expect(yaml.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  }, 120_000);

  it('finds the errors of a broken copy: an example off its schema, info without its title', async () => {
    // A fresh document each call: the edits below touch no other test's copy.
    const doc = buildOpenApi() as {
      info: { title?: string };
      paths: Record<
        string,
        Record<
          string,
          { responses: Record<string, { content: Record<string, { example: { candidates: { verdict: string }[] } }> }> }
        >
      >;
    };
    doc.paths['/runs/{run_id}']!.get!.responses['200']!.content['application/json']!.example.candidates[0]!.verdict =
      'maybe';
    delete doc.info.title;
    const result = await lint('broken.json', JSON.stringify(doc));
    expect(result.totals.errors).toBeGreaterThanOrEqual(2);
    expect(result.problems.map((p) => p.ruleId)).toEqual(
      expect.arrayContaining(['no-invalid-media-type-examples', 'struct']),
    );
  }, 120_000);
});
