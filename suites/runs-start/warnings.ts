// Requirement warnings (accepted, with warnings[]) and the bilingual messages of every issue.

import type { ApiResponse } from '../../src/http/types.js';
import type { JsonObject } from '../../src/json/lossless.js';
import type { CheckContext, CheckDefinition } from '../../src/api-setup/check.js';
import type { EvidenceDeclaration } from '../../src/runner/evidence.js';
import type { SpecSection } from '../../src/spec/section-names.js';
import { S } from '../../src/spec/sections.js';
import { int, obj, objects } from '../support/json-values.js';
import { isHebrew } from '../support/language.js';
import { describeIssues, show } from '../support/messages.js';
import type { Expected, Resend } from './rejected-requirements.js';
import { PROBE_FIXTURE, probeJob, start, suite } from './starts.js';
import { checkHeadOf } from '../support/check-row.js';

/** A 202 whose warnings[] holds the expected issue; other warnings are tolerated. */
function expectWarning(t: CheckContext, res: ApiResponse, e: Expected, what: string): void {
  if (!t.expect.status(res, 202, S.runsStart)) return;
  t.expect.schema(res.json, 'run-start-response', S.runsStart, res);
  const warnings = objects(obj(res.json)?.warnings);
  const what202 = `${what}: the 202's warnings[]`;
  t.expect.some(
    warnings,
    (w) => int(w.index) === BigInt(e.index) && w.code === e.code,
    {
      what: what202,
      description: `${e.code} at index ${e.index}`,
      spec: S.runsStart,
      pointer: '/warnings',
      received: describeIssues(warnings),
    },
    res,
  );
}

const HEBREW_LETTERS = /[\u05D0-\u05EA]/u;

/** A check that starts a run on the probe fixture with one batch and expects it started with one warning at its index. */
function warningCheck(
  row: EvidenceDeclaration & {
    id: string;
    title: string;
    spec: SpecSection[];
    submitted: Resend['submitted'];
    expected: Expected;
    what: string;
  },
): CheckDefinition {
  return {
    ...checkHeadOf(suite, row),
    spec: row.spec,
    needs: ['sandbox', 'org'],
    async run(t) {
      expectWarning(t, await start(t, PROBE_FIXTURE, row.submitted), row.expected, row.what);
    },
  };
}

export const WARNING_CHECKS: CheckDefinition[] = [
  warningCheck({
    id: 'runs-start.warns-short-term',
    title: 'A term shorter than 3 characters starts the run with warning short_term_may_be_dropped',
    evidence: 'provoked',
    spec: [S.runsStart, S.limits],
    submitted: [
      { text: 'TypeScript', kind: 'must' },
      { text: 'Go', kind: 'nice' },
    ],
    expected: { index: 1, code: 'short_term_may_be_dropped' },
    what: 'the 2-character term "Go" at 1',
  }),
  warningCheck({
    id: 'runs-start.warns-years-band-ceiling',
    title: 'A bounded years range starts the run with warning years_band_ceiling',
    evidence: 'provoked',
    spec: [S.runsStart],
    submitted: [
      { text: 'TypeScript', kind: 'nice' },
      { text: '3-5 years of backend experience', kind: 'must' },
    ],
    expected: { index: 1, code: 'years_band_ceiling' },
    what: 'the bounded range "3-5 years of backend experience" at 1',
  }),
  warningCheck({
    id: 'runs-start.warns-unverifiable-must',
    title: 'A must that profiles rarely state (a driving licence) starts the run with warning unverifiable_must',
    evidence: 'provoked',
    spec: [S.runsStart],
    submitted: [
      { text: 'TypeScript', kind: 'nice' },
      { text: 'Valid driving licence', kind: 'must' },
    ],
    expected: { index: 1, code: 'unverifiable_must' },
    what: 'the must "Valid driving licence" at 1',
  }),
  {
    id: 'runs-start.issue-messages-bilingual',
    title:
      'Every requirement issue carries message_he in Hebrew, a non-empty message_en and suggestions that are strings or null',
    suite,
    evidence: 'provoked',
    spec: [S.requirementIssue],
    needs: ['org'],
    async run(t) {
      const issues: Array<{ issue: JsonObject; res: ApiResponse; where: string }> = [];
      const rej = await start(t, await probeJob(t), [
        { text: 'TypeScript', kind: 'must' },
        { text: '   ', kind: 'nice' },
      ]);
      if (!t.expect.error(rej, 422, 'requirements_rejected', S.runsStart)) return;
      t.expect.schema(rej.json, 'requirements-rejected', S.requirementIssue, rej);
      objects(obj(rej.json)?.rejected).forEach((issue, i) => issues.push({ issue, res: rej, where: `rejected[${i}]` }));
      if (t.target.environment === 'sandbox') {
        const warn = await start(t, PROBE_FIXTURE, [{ text: 'Go', kind: 'nice' }]);
        if (t.expect.status(warn, 202, S.runsStart)) {
          t.expect.schema(warn.json, 'run-start-response', S.requirementIssue, warn);
          objects(obj(warn.json)?.warnings).forEach((issue, i) =>
            issues.push({ issue, res: warn, where: `warnings[${i}]` }),
          );
        }
      }
      if (
        !t.expect.that(
          issues.length > 0,
          { message: `a refused start returned an empty rejected[]`, spec: S.runsStart },
          rej,
        )
      )
        return;
      for (const { issue, res, where } of issues) {
        const he = issue.message_he;
        const en = issue.message_en;
        t.expect.that(
          typeof he === 'string' && HEBREW_LETTERS.test(he),
          {
            message: `${where} (${String(issue.code)}) has message_he ${show(he)}, with no Hebrew letter; both languages are always present`,
            spec: S.requirementIssue,
            expected: 'Hebrew text',
            received: show(he),
            pointer: `/${where.replace(/\[(\d+)\]/, '/$1')}/message_he`,
          },
          res,
        );
        t.expect.that(
          typeof en === 'string' && en.trim() !== '' && !isHebrew(en),
          {
            message: `${where} (${String(issue.code)}) has message_en ${show(en)}; an English message is always present`,
            spec: S.requirementIssue,
            expected: 'non-empty English text',
            received: show(en),
            pointer: `/${where.replace(/\[(\d+)\]/, '/$1')}/message_en`,
          },
          res,
        );
      }
    },
  },
];
