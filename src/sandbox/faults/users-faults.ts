import type { FaultDefinition } from './types.js';

// Registering recruiters (Endpoints › POST /users).
export const usersFaults = [
  {
    id: 'users.new-user-created-false',
    area: 'users',
    summary: 'the first registration of an `external_id` answers `created: false`',
    caughtBy: 'users.register-new-user',
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
  },
] as const satisfies readonly FaultDefinition[];
