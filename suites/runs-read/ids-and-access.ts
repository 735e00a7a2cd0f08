// Candidate ids as exact int64 tokens, and run reads refused: an unknown run, another organization's run.

import { randomUUID } from 'node:crypto';
import { JsonDecimal, type JsonValue } from '../../src/json/lossless.js';
import type { CheckDefinition } from '../../src/api-setup/check.js';
import { S } from '../../src/spec/sections.js';
import { obj, objects, TWO_POW_53 } from '../support/json-values.js';
import { show } from '../support/messages.js';
import { REAL_RUN_BUDGET_MS } from '../support/runs.js';
import { eachRead, INT64_MAX, INT64_MIN, type Read, readAgain, realRun, suite, where } from './real-runs.js';

export const IDS_AND_ACCESS_CHECKS: CheckDefinition[] = [
  {
    id: 'runs-read.candidate-id-int64',
    title: 'Candidate ids (and ref.candidate_id) are JSON integers within int64, written as exact integer tokens',
    suite,
    evidence: 'provoked',
    spec: [S.identifiers, S.candidate, S.limits],
    needs: ['org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const reads: Read[] = [];
      if (t.target.environment === 'sandbox') {
        const { runId } = await t.setup.fixtureRun('cert-notices-all');
        const r = await readAgain(t, runId, 'read cert-notices-all');
        if (r) reads.push(r);
      }
      const v = await realRun(t);
      reads.push(...v.reads);
      eachRead(reads, (r) => {
        // Met one at a time: a list of them all first was a million objects for a hostile read.
        const values = function* (): Generator<{ v: JsonValue | undefined; at: string }> {
          for (const [i, c] of objects(r.run.candidates).entries()) yield { v: c.id, at: `/candidates/${i}/id` };
          for (const [i, n] of objects(r.run.notices).entries()) {
            const ref = obj(n.ref);
            if (ref && 'candidate_id' in ref) yield { v: ref.candidate_id, at: `/notices/${i}/ref/candidate_id` };
          }
        };
        for (const { v: id, at } of values()) {
          const isInt = (typeof id === 'number' && Number.isInteger(id)) || typeof id === 'bigint';
          const value = isInt ? BigInt(id as number | bigint) : undefined;
          const ok = t.expect.that(
            value !== undefined && value >= INT64_MIN && value <= INT64_MAX,
            {
              message: `${where(r)}: ${at} is ${typeof id === 'string' ? `the string ${show(id)}` : id instanceof JsonDecimal ? `the non-integer token ${id.raw}` : show(id)}; candidate ids are JSON integers (int64)`,
              spec: S.identifiers,
              expected: 'an integer token within int64',
              received: show(id),
              pointer: at,
            },
            r.res,
          );
          if (!ok) return false;
          // Beyond 2^53 a double cannot hold the id: the exact digits must be on the wire.
          if (value !== undefined && (value > TWO_POW_53 || value < -TWO_POW_53)) {
            const exact = new RegExp(`(?<![\\d.])${value.toString()}(?![\\d.eE])`).test(r.res.text);
            if (
              !t.expect.that(
                exact,
                {
                  message: `${where(r)}: ${at} ${value} does not appear as exact digits in the body`,
                  spec: S.identifiers,
                  pointer: at,
                },
                r.res,
              )
            )
              return false;
          }
        }
        return true;
      });
    },
  },
  {
    id: 'runs-read.run-not-found',
    title: 'Reading a run id that does not exist answers 404 run_not_found',
    suite,
    evidence: 'provoked',
    spec: [S.runsRead, S.byEndpoint],
    needs: ['org'],
    async run(t) {
      await t.setup.org();
      const res = await t.api.get(`/runs/${randomUUID()}`);
      t.expect.error(res, 404, 'run_not_found', S.byEndpoint);
    },
  },
  {
    id: 'runs-read.other-organization-404',
    title: "Reading another organization's run answers 404 run_not_found, never 403 or the run",
    suite,
    evidence: 'input',
    spec: [S.runsRead, S.byEndpoint],
    needs: ['org', 'second-org'],
    timeoutMs: REAL_RUN_BUDGET_MS,
    async run(t) {
      const second = await t.setup.secondOrg();
      if (!second) {
        t.skip(t.setup.codeShortage('typed'));
        return;
      }
      // The primary organization's run: a free fixture run in the sandbox, the shared real run in production.
      const runId =
        t.target.environment === 'sandbox'
          ? (await t.setup.fixtureRun('cert-notices-all')).runId
          : (await t.setup.realRun()).run.runId;
      const res = await t.api.get(`/runs/${encodeURIComponent(runId)}`, {
        auth: { partnerKey: t.inputs.partnerKey, orgToken: second.orgToken },
        label: "read the first organization's run with the second organization's token",
      });
      t.expect.error(res, 404, 'run_not_found', S.byEndpoint);
    },
  },
];
