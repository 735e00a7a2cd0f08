import { describe, expect, it } from 'vitest';
import { INJECTION_POINTS } from '../partner/injection-points.js';
import { PARTNER_EXAMPLES } from './help-text.js';

describe('help text', () => {
  it('partner --help lists every injection point with its summary', () => {
    expect(INJECTION_POINTS.length).toBeGreaterThan(0);
    for (const p of INJECTION_POINTS) expect(PARTNER_EXAMPLES).toContain(`  ${p.id}: ${p.summary}`);
  });
});
