// The checklist in CI: one plain line per change of a rule's state, the grouped summary at the end.

import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CHECKLIST } from './checklist.js';
import { createPartnerConsole } from './live-checklist.js';
import { partnerRules } from './rules/index.js';

describe('partner console (plain)', () => {
  it('prints a line when a rule changes state, not when it stays', () => {
    let text = '';
    const stream = new Writable({ write: (c: Buffer, _e, done) => ((text += c.toString('utf8')), done()) });
    const rules = partnerRules(() => []);
    const view = createPartnerConsole({ stream, interactive: false, color: false, rules });
    const rule = rules[0]!;
    view.update([{ rule, verdict: { state: 'pending', message: 'not exercised: x', observations: [] } }]);
    view.update([{ rule, verdict: { state: 'passed', message: 'ok so far', observations: [] } }]);
    view.update([{ rule, verdict: { state: 'passed', message: 'ok so far', observations: [] } }]);
    view.update([{ rule, verdict: { state: 'failed', message: 'broken', observations: [] } }]);
    const lines = text.trim().split('\n');
    // The session checklist comes first, every step numbered.
    expect(lines[0]).toContain('A partner session contains these steps');
    CHECKLIST.forEach((step, i) => expect(lines[i + 1]).toBe(`  ${i + 1}. ${step.title}`));
    const rest = lines.slice(CHECKLIST.length + 1);
    expect(rest[0]).toContain(`judging ${rules.length} rules`);
    expect(rest.slice(1)).toEqual([`… ${rule.id} holds so far: ok so far`, `… ${rule.id} failed: broken`]);
  });
});
