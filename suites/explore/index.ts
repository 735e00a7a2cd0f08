// Exploration: properties the spec states for every input, checked on requests generated from the
// request schemas (src/schema/explore-cases.ts, fast-check), seeded (--seed) and shrunk to a minimal
// failing request. Per endpoint:
// - a schema mismatch is answered 4xx with the error envelope ("A malformed JSON body or a schema
//   mismatch gives a 4xx"; "Every non-2xx response has a JSON envelope"): a 2xx accepted the mismatch;
// - a valid request is never answered 5xx (a second attempt confirms it: a 5xx may be transient);
// - every 2xx answer has its documented shape (the response schema);
// - a refused write stored nothing, where the spec says so and it can be read back (jobs: "nothing
//   stored", an upsert then answers `created: true`; decisions: "Any 422 means nothing of the request
//   was stored", the valid part then counts no duplicate).
// What the spec leaves open stays open: a `format` is an annotation, text size limits are not shown (a
// long value refused with a 4xx or accepted are both fine), `role` values are open; the requiredness of
// a field counts only where the spec states it.
//
// Budget: the exploration never starts a real run (run starts name a `cert-*` fixture, or are invalid)
// and sends only on rate budget the other checks leave unused (priority 'spare', and only while some
// other check still runs, so it never lengthens the certification): at most --explore requests in all,
// shared by the checks by weight.
//
// The checks by topic live beside this file; their order here is the order of the plan and the output.

import type { CheckDefinition } from '../../src/api-setup/check.js';
import { ENDPOINTS } from './endpoints.js';
import { mismatchCheck, schemaCheck, storedCheck, validCheck } from './properties.js';

export const EXPLORE_CHECKS: CheckDefinition[] = [
  ...ENDPOINTS.flatMap((ep) => [mismatchCheck(ep), validCheck(ep), schemaCheck(ep)]),
  ...ENDPOINTS.filter((ep) => ep.name === 'jobs' || ep.name === 'decisions').map(storedCheck),
];
