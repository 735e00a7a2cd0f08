// --user-role and the role the certifier guesses: the allowed values of `role` are "not shown", so a
// server with its own list must never fail a check because of the certifier's guess.

import { describe, expect, it } from 'vitest';
import { certifySandbox, notPassed, resultOf } from './support/certify-sandbox.js';

const IDS = ['users.register-new-user', 'users.upsert-repeat-same-user', 'conventions.success-json-utf8'];
const STRICT = ['users.strict-role-list'];

function registrations(run: Awaited<ReturnType<typeof certifySandbox>>, id: string): string[] {
  return resultOf(run, id)
    .exchanges.filter((e) => e.request.method === 'POST' && e.request.url.endsWith('/users'))
    .map((e) => `${e.response?.status ?? 0} ${JSON.parse(e.request.body ?? '{}').role ?? '(no role)'}`);
}

describe('the role sent when registering recruiters', () => {
  it('without --user-role, a refused guess is retried without role, and the checks pass', async () => {
    const run = await certifySandbox({ variants: STRICT, ids: IDS });
    expect(notPassed(run)).toEqual([]);
    // The shared setup's exchanges: the guess refused, then accepted without a role; the check follows suit.
    expect(registrations(run, 'users.register-new-user')).toEqual(['422 recruiter', '200 (no role)', '200 (no role)']);
  });

  it('with --user-role, that role is sent everywhere', async () => {
    const run = await certifySandbox({ variants: STRICT, ids: IDS, flags: { userRole: 'talent_partner' } });
    expect(notPassed(run)).toEqual([]);
    expect(registrations(run, 'users.upsert-repeat-same-user')).toEqual([
      '200 talent_partner',
      '200 talent_partner',
      '200 talent_partner',
    ]);
  });

  it('a --user-role the target refuses skips every check that needs the recruiter, naming --user-role', async () => {
    const run = await certifySandbox({
      variants: STRICT,
      ids: [...IDS, 'decisions.response-schema'],
      flags: { userRole: 'wizard' },
    });
    for (const c of run.checks) {
      expect(c.status, c.id).toBe('skipped');
      expect(c.message, c.id).toMatch(
        /refused role "wizard" \(from --user-role\) with 422 invalid_user.*--user-role ROLE \(SVC_USER_ROLE\)/,
      );
    }
  });
});
