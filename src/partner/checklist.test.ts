// The session checklist and the rules agree: every rule is reached by one step, every step the table names
// exists, docs/partner.md lists every step, and a rule left unexercised names the step that was skipped.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../package-root.js';
import { CHECKLIST, missingStep, RULE_STEPS, stepsDone } from './checklist.js';
import { judgeAll } from './judge.js';
import { partnerRules } from './rules/index.js';
import type { JudgeContext, PartnerRequest, Traffic } from './traffic.js';

const rules = partnerRules(() => []);
const ctx: JudgeContext = { timeScale: 1, webhookRegistered: true, inject: true, final: true, now: 1_000_000 };

let nextId = 1;
const req = (over: Partial<PartnerRequest> & Pick<PartnerRequest, 'endpoint'>): PartnerRequest => ({
  id: nextId++,
  at: nextId * 10,
  answeredAt: nextId * 10 + 1,
  method: 'POST',
  path: '/v1/x',
  query: '',
  headers: {},
  bodyText: '',
  status: 200,
  lost: false,
  responseHeaders: {},
  responseText: '',
  ...over,
});

describe('partner session checklist', () => {
  it('the table of rule steps lists exactly the rules, each naming a step of the checklist', () => {
    expect(Object.keys(RULE_STEPS).sort()).toEqual(rules.map((r) => r.id).sort());
    const steps = new Set(CHECKLIST.map((s) => s.id));
    expect(steps.size).toBe(CHECKLIST.length);
    for (const [rule, step] of Object.entries(RULE_STEPS)) expect(steps.has(step), `${rule} → ${step}`).toBe(true);
    // Every step reaches at least one rule that is a duty: none is there for show.
    for (const s of CHECKLIST)
      expect(
        rules.some((r) => RULE_STEPS[r.id] === s.id && !r.advisory && r.evidence !== 'conditional'),
        s.id,
      ).toBe(true);
  });

  it('docs/partner.md lists every step, in order', () => {
    const page = readFileSync(join(packageRoot(), 'docs', 'partner.md'), 'utf8');
    let from = 0;
    for (const [i, s] of CHECKLIST.entries()) {
      const at = page.indexOf(`${i + 1}. ${s.title}`, from);
      expect(at, s.id).toBeGreaterThanOrEqual(0);
      from = at;
    }
  });

  it('steps are done by what the traffic shows', () => {
    const traffic: Traffic = {
      requests: [
        req({ endpoint: 'redeem', status: 0, lost: true }),
        req({ endpoint: 'users', status: 429 }),
        req({ endpoint: 'runs-start', json: { job_external_id: 'job-1' }, status: 202 }),
        ...['cert-notices-all', 'cert-notice-unknown', 'cert-slow'].map((f) =>
          req({ endpoint: 'runs-start', json: { job_external_id: f }, status: 202 }),
        ),
      ],
      deliveries: [],
    };
    const done = stepsDone(traffic);
    expect([...done].sort()).toEqual(['connect-customer', 'register-recruiter', 'start-own-run']);
    // cert-failed never started: the fixtures step is not done, and its rule says so.
    expect(missingStep('retries.run-start-not-retried-after-5xx', done)).toBe(
      `checklist step 5 (${CHECKLIST[4]!.title}) not performed`,
    );
    expect(missingStep('retries.redeem-not-retried-after-lost-answer', done)).toBeUndefined();
  });

  it('a rule not exercised names its skipped step; one whose step was performed keeps its hint alone', () => {
    const traffic: Traffic = { requests: [req({ endpoint: 'users', status: 200 })], deliveries: [] };
    const judged = judgeAll(rules, traffic, ctx);
    const reveal = judged.find((j) => j.rule.id === 'retries.none-after-402-insufficient-credits')!;
    expect(reveal.verdict.state).toBe('skipped');
    expect(reveal.verdict.message).toMatch(
      /^not exercised: checklist step 7 \(reveal a candidate .*\) not performed; /,
    );
    const users = judged.find((j) => j.rule.id === 'retries.retry-after-honoured')!;
    expect(users.verdict.message.startsWith('not exercised: checklist step')).toBe(false);
  });
});
