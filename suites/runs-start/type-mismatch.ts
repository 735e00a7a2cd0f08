// A run start whose body breaks the request table's types is refused: "A malformed JSON body or a
// schema mismatch gives a 4xx". Two lenient readings a service may fall into are each provoked once,
// on a fixture start (free, and never a real run even when the service accepts it): a string where an
// integer is due (coercion) and `null` where the table gives a type without "or null" (null read as
// absent). Which 4xx and which error code are open in v1: judged by status and envelope only.

import type { CheckDefinition } from '../../src/api-setup/check.js';
import { S } from '../../src/spec/sections.js';
import { expectErrorEnvelope } from '../support/error-answers.js';
import { suite } from './starts.js';

/** A fixture with a start of its own here: cert-empty lists nobody, so an accepted start costs nothing. */
const FIXTURE = 'cert-empty';

interface Mismatch {
  what: string;
  /** The lenient reading a 2xx shows, named in the failure. */
  reading: string;
  body: (user: string) => Record<string, unknown>;
}

const MISMATCHES: readonly Mismatch[] = [
  {
    what: 'target_count "1" (a string where the table gives integer)',
    reading: 'coercion: the string "1" was read as the integer 1',
    body: (user) => ({ job_external_id: FIXTURE, acting_user_external_id: user, target_count: '1' }),
  },
  {
    what: 'requirements null (the table gives "array of RequirementInput", without "or null")',
    reading: 'null read as absent: the run started as if requirements were omitted',
    body: (user) => ({ job_external_id: FIXTURE, acting_user_external_id: user, target_count: 1, requirements: null }),
  },
];

export const TYPE_MISMATCH_CHECKS: CheckDefinition[] = [
  {
    id: 'runs-start.type-mismatch-refused',
    title:
      'A run start with a string where an integer is due (target_count "1") or null where the table allows none (requirements null) is refused with a 4xx and the error envelope',
    suite,
    evidence: 'provoked',
    spec: [S.errors, S.runsStart],
    needs: ['sandbox', 'org'],
    async run(t) {
      const user = (await t.setup.user()).externalId;
      for (const m of MISMATCHES) {
        const res = await t.setup.startRun(m.body(user), { label: `start ${FIXTURE} with ${m.what}` });
        const refused = t.expect.that(
          res.status >= 400 && res.status <= 499,
          {
            message: `a run start with ${m.what} answered ${res.status}; a schema mismatch gives a 4xx. The answer shows the reading taken, ${m.reading}, which the spec does not allow`,
            spec: S.errors,
            expected: '4xx',
            received: String(res.status),
          },
          res,
        );
        if (refused) expectErrorEnvelope(t, res, `a run start with ${m.what}`);
      }
    },
  },
];
