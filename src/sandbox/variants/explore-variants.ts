import type { VariantDefinition } from './types.js';

// Conformant services of the kinds generated requests meet: a lenient one that takes what the spec
// leaves to formats and a strict one that refuses more text. Hooks: text-policy.ts.
export const exploreVariants = [
  {
    id: 'explore.lenient-formats',
    area: 'explore',
    summary:
      'any string is taken as a recruiter `email` (no @ needed), and a decision `occurred_at` without an offset is read as UTC',
    allowedBy:
      'User: `email` is a string "stored as a contact and display e-mail only; not a login; nothing is mailed"; Decision: `occurred_at` is a "string date-time" (a JSON Schema format is an annotation); "Timestamps are ISO 8601 in UTC"',
  },
  {
    id: 'explore.strict-text',
    area: 'explore',
    summary:
      'a request whose text holds a control character (NUL, U+0001–U+001F but tab and line breaks, U+007F) or runs past 1,000 characters is refused with 422 `invalid_request`',
    allowedBy:
      'Limits: "Size limits of text fields (title, description, note, location, names): not shown"; "A malformed JSON body or a schema mismatch gives a 4xx whose error code is not fixed in v1": what text a field takes beyond its type is not shown',
  },
] as const satisfies readonly VariantDefinition[];
