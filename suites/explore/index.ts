// Exploration: properties the spec states for every input, checked on requests generated from the
// request schemas (src/schema/explore-cases.ts, fast-check), seeded (--seed, fixed by default) and shrunk
// to a minimal failing request. Each check first sends a fixed sweep (src/schema/explore-sweep.ts: every
// field with each mismatch kind and each unusual valid kind), then seeded cases, drawn one at a time.
// Per endpoint:
// - a schema mismatch is answered 4xx with the error envelope ("A malformed JSON body or a schema
//   mismatch gives a 4xx"; "Every non-2xx response has a JSON envelope"): a 2xx accepted the mismatch;
// - a valid request is never answered 5xx (a second attempt confirms it: a 5xx may be transient) when
//   the input is ordinary (any UTF-8 text is: "JSON (UTF-8)"); on an input whose handling the spec leaves
//   open (control characters, lengths it bounds nowhere, ids beyond any listed candidate, fields it does
//   not name) a 5xx is a warning;
// - every 2xx answer has its documented shape (the response schema);
// - a write refused 422 stored nothing, where the spec says so and it can be read back (jobs: "422
//   job_rejected … (nothing stored)", an upsert then answers `created: true`; decisions: "Any 422 means
//   nothing of the request was stored", the valid part then counts no duplicate); another 4xx that
//   stored the write is a warning (the promise names 422).
// What the spec leaves open stays open: a `format` is an annotation, text size limits are not shown (a
// long value refused with a 4xx or accepted are both fine), `role` values are open; the requiredness of
// a field counts only where the spec states it.
//
// Budget and state: the exploration never starts a real run (run starts name a `cert-*` fixture, or are
// invalid), never spends an activation code (redeem names a code no service can have issued), and
// sends on rate budget the other checks leave unused (priority 'spare') while some other check still
// runs, then the rest within a grace sized to its cap (spare-budget.ts), nothing after: at most
// --explore requests in all, shared by the checks (their sweeps first, then by weight).
//
// The checks by topic live beside this file; their order here is the order of the plan and the output.

import type { CheckDefinition } from '../../src/api-setup/check.js';
import { ENDPOINTS } from './endpoints.js';
import { mismatchCheck, schemaCheck, storedCheck, validCheck } from './properties.js';
import { explores } from './sending.js';

export const EXPLORE_CHECKS: CheckDefinition[] = [
  ...ENDPOINTS.flatMap((ep) => [
    mismatchCheck(ep),
    validCheck(ep),
    ...(explores(ep, 'schema') ? [schemaCheck(ep)] : []),
  ]),
  ...ENDPOINTS.filter((ep) => explores(ep, 'stored')).map(storedCheck),
];
