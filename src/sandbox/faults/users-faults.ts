import type { FaultDefinition } from './types.js';

// Registering recruiters (Endpoints › POST /users).
export const usersFaults = [
  { id: 'users.new-user-created-false', area: 'users', summary: 'the first registration of an `external_id` answers `created: false`', caughtBy: 'users.register-new-user' },
  { id: 'users.repeat-new-user-id', area: 'users', summary: 'a repeated user upsert returns a new `user_id`', caughtBy: 'users.upsert-repeat-same-user' },
] as const satisfies readonly FaultDefinition[];
