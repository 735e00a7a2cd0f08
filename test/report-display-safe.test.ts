// Display-safe text in every report and the console: a bidirectional control (U+202E in a check id
// makes "conventions.does-not-fail" of "conventions.liaf-ton-seod") or a C0/C1 control a target sent
// is shown as a visible escape, never as the character; results.json keeps the value, JSON-escaped.

import { describe, expect, it } from 'vitest';
import { makeRunResult } from './report-fixtures.js';
import { formatCheckBlock, formatGroupedSummary, makeChalk } from '../src/report/console-format.js';
import { renderHtml } from '../src/report/html.js';
import { renderJson } from '../src/report/json.js';
import { renderJunit } from '../src/report/junit.js';
import { renderMarkdown } from '../src/report/markdown.js';
import { renderSarif } from '../src/report/sarif.js';
import type { RunResult } from '../src/runner/results.js';

const RLO_ID = 'conventions.\u202eliaf-ton-seod';
const MESSAGE = 'passed \u202e)deliaf(\u202c \u2066iso\u2069 \u200f mark \u001b]52;c;AAAA\u0007 nul\u0000 c1\u009b31m';
/** Every character that must not reach a reader raw. */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

function hostileResult(): RunResult {
  const result = makeRunResult();
  const failed = result.checks.find((c) => c.status === 'failed');
  if (!failed) throw new Error('the fixture has a failed check');
  failed.id = RLO_ID;
  failed.message = MESSAGE;
  failed.title = `title ${MESSAGE}`;
  return result;
}

describe('display-safe text', () => {
  const result = hostileResult();
  const outputs: Array<[string, string]> = [
    ['report.html', renderHtml(result)],
    ['junit.xml', renderJunit(result)],
    ['summary.md', renderMarkdown(result)],
    ['results.sarif', renderSarif(result)],
    ['results.json', renderJson(result)],
    [
      'console',
      [
        ...result.checks.flatMap((c) => formatCheckBlock(c, makeChalk(false), 'report.html')),
        formatGroupedSummary(result, makeChalk(false)),
      ].join('\n'),
    ],
  ];

  it.each(outputs)('%s holds no raw bidirectional or control character', (_name, text) => {
    expect(RAW.exec(text)?.[0].codePointAt(0)?.toString(16)).toBeUndefined();
  });

  /** What a reader sees: SARIF's ids and message texts as a code-scanning page shows them (parsed). */
  function shown(name: string, text: string): string {
    if (name !== 'results.sarif') return text;
    const log = JSON.parse(text) as { runs: Array<{ results: Array<{ ruleId: string; message: { text: string } }> }> };
    return log.runs.flatMap((r) => r.results.map((x) => `${x.ruleId}\n${x.message.text}`)).join('\n');
  }

  it.each(outputs.filter(([name]) => name !== 'results.json'))('%s shows U+202E as a visible escape', (name, raw) => {
    const text = shown(name, raw);
    expect(text).toContain('conventions.\\u202Eliaf-ton-seod');
    expect(text).toMatch(/\\x1B\\?]52;c;AAAA\\x07/);
  });

  it('results.json keeps the values, JSON-escaped', () => {
    const text = outputs.find(([name]) => name === 'results.json')?.[1] ?? '';
    expect(text).toContain('\\u202e');
    const parsed = JSON.parse(text) as RunResult;
    const check = parsed.checks.find((c) => c.id === RLO_ID);
    expect(check?.message).toBe(MESSAGE);
  });
});
