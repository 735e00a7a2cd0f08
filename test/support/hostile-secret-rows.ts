// The hostile matrix rows about secrets and what reports are made of: a target handing out one
// 10,000-character org token or 2,000 of them, a target echoing the key and token in every form, a
// results.json holding a full key, a crafted results.json of 5,000 references to a 1 MiB exchange, an
// answer nested 4,500 levels, a results.json nested 100,000, terminal control sequences, a symlink in
// the report folder. Each holds to the matrix's bounds, and the secrets rows to "no secret in any form
// in any output": console, summary.md, results.json, junit.xml, report.html (and SARIF where written).

import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MatrixRow } from './hostile-matrix.js';
import {
  CONTROL_TEXT,
  HOSTILE_KEY,
  HOSTILE_TOKEN,
  startSecretTarget,
  type SecretHostility,
} from './hostile-secret-targets.js';
import { leaksIn } from './secret-leaks.js';
import { disguised } from './secret-disguises.js';
import { makeRunResult } from '../report-fixtures.js';
import { renderJson } from '../../src/report/json.js';

/** A `run` with the partner key and an org token against a target answering every request 404 as `kind` says. */
function secretRun(kind: SecretHostility): MatrixRow['prepare'] {
  return async () => {
    const target = await startSecretTarget(kind);
    return {
      args: ['run', '--base-url', target.baseUrl, '--partner-key', HOSTILE_KEY, '--org-token', HOSTILE_TOKEN],
      cleanup: () => target.close(),
    };
  };
}

const noLeak: MatrixRow['verifyOutputs'] = (outputs) => leaksIn(outputs, [HOSTILE_KEY, HOSTILE_TOKEN]);

/**
 * Tokens past the redaction's bounds are a finding, not a silent count: results.json names them (its
 * notice, with `what` in its counts) and so do the console and summary.md.
 */
function tokensPastBoundsNamed(what: RegExp): MatrixRow['verifyOutputs'] {
  return (outputs) => {
    const results = JSON.parse(outputs.find((o) => o.name === 'results.json')?.text ?? '{}') as {
      notices?: Array<{ id: string; message: string }>;
    };
    const notice = results.notices?.find((n) => n.id === 'redaction.org-tokens-past-bounds');
    if (!notice) return 'no notice names the org tokens past the redaction bounds';
    if (!what.test(notice.message)) return `the notice does not say ${what}: ${notice.message}`;
    const silent = ['stdout', 'summary.md', 'report.html'].filter(
      (name) => !outputs.find((o) => o.name === name)?.text.includes('not redacted as secrets'),
    );
    return silent.length > 0 ? `${silent.join(', ')} do not show the notice` : undefined;
  };
}

function all(...checks: Array<MatrixRow['verifyOutputs']>): MatrixRow['verifyOutputs'] {
  return (outputs, dir) => {
    for (const check of checks) {
      const problem = check?.(outputs, dir);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
}

/** A raw control character (tab and line feed aside) in any output that a person reads in a terminal or a job summary. */
const RAW_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;

/** A raw bidirectional control or control character (tab, line feed and CR aside) in any output. */
const RAW_BIDI = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

function noRawControls(names: readonly string[], raw: RegExp = RAW_CONTROL): MatrixRow['verifyOutputs'] {
  return (outputs) => {
    const found = outputs.filter((o) => names.includes(o.name) && raw.test(o.text)).map((o) => o.name);
    return found.length > 0 ? `raw control characters in ${found.join(', ')}` : undefined;
  };
}

/** Keys of the spec's format nobody gave the command: found by their format, under any disguise. */
const DISGUISED_KEYS = [`spk_live_${'9f8e7d6c5b4a3921'.repeat(3)}`, `spk_live_${'0a1b2c3d4e5f6071'.repeat(3)}`];

function disguisedKeys(): string {
  const [a = '', b = ''] = DISGUISED_KEYS;
  return [
    a.replace(/_/g, '%5F'),
    disguised('reversed', b),
    disguised('interleaved with U+200B', a),
    disguised('fullwidth', b),
    disguised('percent-encoded twice', a),
    disguised('rot13', b),
    disguised('base32', a),
  ].join(' / ');
}

/** `s` as the inside of a JSON string. */
function jsonString(s: string): string {
  return JSON.stringify(s).slice(1, -1);
}

/** A check of the run that ended `error` on a stack overflow. */
function noStackOverflow(results: unknown): string | undefined {
  const checks = (results as { checks?: Array<{ id: string; status: string; message: string }> }).checks ?? [];
  const broken = checks.filter((c) => c.status === 'error' && /call stack|RangeError/i.test(c.message));
  return broken.length > 0 ? `checks ended error: ${broken.map((c) => c.id).join(', ')}` : undefined;
}

/** The fixture run's results.json (not certified: exit 1), with `edit` applied to its text. */
function resultsFile(dir: string, edit: (text: string) => string = (t) => t): void {
  writeFileSync(join(dir, 'in.json'), edit(renderJson(makeRunResult())));
}

/** One passed check holding a 1 MiB exchange and `refs` references to it. */
function sharedFile(dir: string, refs: number): void {
  const result = makeRunResult();
  const passed = result.checks.find((c) => c.status === 'passed');
  const first = passed?.exchanges[0];
  if (!passed || !first) throw new Error('the fixture has a passed check with an exchange');
  const big = { ...first, response: { status: 200, headers: {}, body: 'x'.repeat(1024 * 1024) } };
  const checks = result.checks.map((c) =>
    c === passed
      ? { ...c, exchanges: [big, ...Array.from({ length: refs }, () => ({ sameAs: { check: 0, exchange: 0 } }))] }
      : c,
  );
  // The passed check first, so every reference names an earlier exchange.
  const ordered = [
    checks[result.checks.indexOf(passed)],
    ...checks.filter((_, i) => i !== result.checks.indexOf(passed)),
  ];
  writeFileSync(join(dir, 'in.json'), JSON.stringify({ ...result, checks: ordered }));
}

export const SECRET_ROWS: MatrixRow[] = [
  {
    name: 'run-org-token-10000-chars',
    what: 'run --org-token … --partner-key …, every answer a 404 carrying one org_token of 10,000 characters',
    prepare: secretRun('long-token'),
    expect: { code: 1, verdict: 'not-certified', reports: true },
    verifyOutputs: all(noLeak, tokensPastBoundsNamed(/longer than the 1,024 characters .*the longest 10,000/)),
    maxSeconds: 60,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'run-org-tokens-2000',
    what: 'run, every answer a 404 of 50 KB carrying 2,000 distinct org_token values',
    prepare: secretRun('many-tokens'),
    expect: { code: 1, verdict: 'not-certified', reports: true },
    verifyOutputs: all(noLeak, tokensPastBoundsNamed(/past the 16 taken from one answer/)),
    maxSeconds: 60,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'run-secret-forms-echoed',
    what: 'run, every answer a 404 echoing the key and token in 17 forms each (secret part alone, pieces of 16 and 20 from its middle, split, base64 wrapped, of UTF-16LE and BE, hex, HTML references, - for _, \\x5f, …)',
    prepare: secretRun('echo-forms'),
    expect: { code: 1, verdict: 'not-certified', reports: true },
    verifyOutputs: noLeak,
    maxSeconds: 60,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'run-secret-disguises-echoed',
    what: 'run, every answer a 404 echoing the key and token in 25 disguises each (interleaved with U+200B, U+2060 and U+00AD, spaced out, fullwidth, percent-encoded once and twice, HTML references, \\u escapes, upper case, reversed, rot13, base64, base64url, base32, hex, and 10 compositions of two)',
    prepare: secretRun('echo-disguises'),
    expect: { code: 1, verdict: 'not-certified', reports: true },
    verifyOutputs: noLeak,
    maxSeconds: 90,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'report-disguised-keys',
    what: 'report of a results.json holding keys nobody named, disguised: spk%5Flive%5F<48 hex>, reversed, interleaved with U+200B, fullwidth, percent-encoded twice, rot13, base32',
    async prepare(dir) {
      resultsFile(dir, (text) => text.replace('was accepted;', `was accepted with ${jsonString(disguisedKeys())};`));
      const text = readFileSync(join(dir, 'in.json'), 'utf8');
      if (!text.includes('spk%5Flive%5F')) throw new Error('the disguised keys did not make it into the file');
      return { args: ['report', 'in.json', '--reporter', 'console,json,junit,html,markdown,sarif'] };
    },
    expect: {
      code: 1,
      reports: true,
      reportFiles: ['results.json', 'junit.xml', 'report.html', 'summary.md', 'results.sarif'],
    },
    verifyOutputs: (outputs) => leaksIn(outputs, DISGUISED_KEYS),
    maxSeconds: 30,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'baseline-disguised-keys',
    what: 'baseline of a results.json whose failed check id and reason carry keys nobody named, disguised (as report-disguised-keys)',
    async prepare(dir) {
      resultsFile(dir, (text) => text.replace('was accepted;', `was accepted with ${jsonString(disguisedKeys())};`));
      return { args: ['baseline', 'in.json'] };
    },
    expect: { code: 0, reports: false },
    verifyOutputs: (outputs) => leaksIn(outputs, DISGUISED_KEYS),
    maxSeconds: 30,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'run-bidi-controls',
    what: 'run, every answer a 404 whose error and message carry U+202E, U+2066-U+2069, U+200F and U+061C',
    prepare: secretRun('bidi'),
    expect: { code: 1, verdict: 'not-certified', reports: true },
    verifyOutputs: noRawControls(['summary.md', 'report.html', 'junit.xml', 'stdout', 'stderr'], RAW_BIDI),
    maxSeconds: 60,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'report-full-key',
    what: 'report of a results.json holding a full key (as is, upper case, - for _) in a message, a body and a curl',
    async prepare(dir) {
      resultsFile(dir, (text) =>
        text
          .replace('was accepted;', `was accepted with ${HOSTILE_KEY};`)
          .replace('"wrong token"', `"wrong token ${HOSTILE_KEY.toUpperCase()}"`)
          .replace(/"curl":"curl /, `"curl":"curl -H 'x-partner-key: ${HOSTILE_KEY.replace(/_/g, '-')}' `),
      );
      const text = readFileSync(join(dir, 'in.json'), 'utf8');
      if (!text.includes(HOSTILE_KEY)) throw new Error('the key did not make it into the file');
      return { args: ['report', 'in.json'] };
    },
    expect: { code: 1, reports: true },
    verifyOutputs: (outputs) => leaksIn(outputs, [HOSTILE_KEY]),
    maxSeconds: 20,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'report-nested-100000',
    what: 'report of a results.json with a member nested 100,000 levels whose innermost value is a full key',
    async prepare(dir) {
      const deep = `${'['.repeat(100_000)}"${HOSTILE_KEY}"${']'.repeat(100_000)}`;
      resultsFile(dir, (text) => text.replace(/"message":"/, `"deep":${deep},"message":"`));
      if (!readFileSync(join(dir, 'in.json'), 'utf8').includes(deep)) throw new Error('the nesting did not make it in');
      return { args: ['report', 'in.json'] };
    },
    // Read, redacted and written like any other (the nesting cut with a marker), not an internal error.
    expect: { code: 1, reports: true },
    verifyOutputs: (outputs) => leaksIn(outputs, [HOSTILE_KEY]),
    maxSeconds: 20,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'report-5000-shared-refs',
    what: 'report of a crafted 1 MB results.json: one exchange with a 1 MiB body and 5,000 sameAs references to it',
    async prepare(dir) {
      sharedFile(dir, 5000);
      return { args: ['report', 'in.json'] };
    },
    expect: { code: 1, reports: true },
    maxSeconds: 60,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'run-nested-4500',
    what: 'run, every answer a 404 whose error, message and data are arrays nested 4,500 levels',
    prepare: secretRun('deep'),
    expect: { code: 1, verdict: 'not-certified', reports: true },
    verify: noStackOverflow,
    maxSeconds: 60,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'run-control-sequences',
    what: 'run, every answer a 404 whose error and message carry ESC, OSC 52, OSC 8, NUL and C1 CSI',
    prepare: secretRun('control-chars'),
    expect: { code: 1, verdict: 'not-certified', reports: true },
    verifyOutputs: noRawControls(['summary.md', 'stdout', 'stderr']),
    maxSeconds: 60,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'report-control-sequences-stderr',
    what: 'report of a results.json whose invalid member name carries OSC 52, with an unknown SVC_ variable named with ESC',
    async prepare(dir) {
      writeFileSync(join(dir, 'in.json'), JSON.stringify({ [`bad${CONTROL_TEXT}`]: 1 }));
      return { args: ['report', 'in.json'], env: { [`SVC_X\u001b]52;c;AAAA\u0007`]: '1' } };
    },
    expect: { code: 2, reports: false },
    verifyOutputs: noRawControls(['stdout', 'stderr']),
    maxSeconds: 20,
    testedIn: 'test/hostile-matrix.test.ts',
  },
  {
    name: 'report-dir-symlink',
    what: 'report into a folder where summary.md is a symlink to a file outside it',
    async prepare(dir) {
      resultsFile(dir);
      writeFileSync(join(dir, 'victim.txt'), 'precious');
      mkdirSync(join(dir, 'out'));
      symlinkSync('../victim.txt', join(dir, 'out', 'summary.md'));
      return { args: ['report', 'in.json'] };
    },
    expect: { code: 1, reports: true },
    verifyOutputs: (_outputs, dir) =>
      readFileSync(join(dir, 'victim.txt'), 'utf8') === 'precious'
        ? undefined
        : 'victim.txt was overwritten through the link',
    maxSeconds: 20,
    testedIn: 'test/hostile-matrix.test.ts',
  },
];
