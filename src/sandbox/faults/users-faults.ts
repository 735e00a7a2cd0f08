// Registering recruiters (Endpoints › POST /users). The answer acts at its point; a new user_id for a repeat
// is switched in routes/users.ts, a recruiter found across organizations at the refusal point.
import { edited } from './reshape.js';
import type { FaultDefinition } from './types.js';
import { onAnswer, onRefusal } from './points.js';

export const usersFaults = [
  {
    id: 'users.repeat-created-true',
    area: 'users',
    summary: 'a repeated user upsert answers `created: true`',
    caughtBy: 'users.upsert-repeat-same-user',
    acts: {
      answer: onAnswer('users', (r) =>
        edited(r, (b) => {
          b.created = true;
        }),
      ),
    },
  },
  {
    id: 'users.new-user-created-false',
    area: 'users',
    summary: 'the first registration of an `external_id` answers `created: false`',
    caughtBy: 'users.register-new-user',
    acts: {
      answer: onAnswer('users', (r) =>
        edited(r, (b) => {
          b.created = false;
        }),
      ),
    },
  },
  {
    id: 'users.repeat-new-user-id',
    area: 'users',
    summary: 'a repeated user upsert returns a new `user_id`',
    caughtBy: 'users.upsert-repeat-same-user',
  },
  {
    id: 'isolation.users-shared-across-orgs',
    area: 'users',
    summary:
      "a run start's acting-user lookup ignores the organization: a recruiter registered only in another organization starts a run (202) instead of `404 user_not_found`",
    caughtBy: 'users.external-id-per-organization',
    acts: {
      refusal: onRefusal({ cause: 'unknown-user', route: 'runs-start' }, (e, f) => (f.elsewhere() ? undefined : e)),
    },
  },
] as const satisfies readonly FaultDefinition[];
