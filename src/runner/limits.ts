// Every resource bound of `run`, with its reason, in one place. A hostile target (answers of
// megabytes, millions of array items) must cost bounded memory and time, and reports of a size a
// person can open; the certifier still judges the whole body it read within the HTTP client's body
// limit. The bounds of the layers below are stated where they act and named here:
// - src/http/evidence-limits.ts RECORDED_BODY_LIMIT: what an exchange record keeps of a body (64 KiB,
//   with its size and SHA-256 when cut);
// - src/schema/validator.ts DETAILED_ITEMS: the items of each array whose schema issues are listed
//   (the whole value is still judged).

export { RECORDED_BODY_LIMIT } from '../http/evidence-limits.js';
export { DETAILED_ITEMS } from '../schema/validator.js';

/**
 * Observations a check keeps; past it they are counted in one last "+K more" observation. A check
 * judging every item of a million-item answer would otherwise put a million observations in memory
 * and in every report, where no person reads past the first few dozen.
 */
export const MAX_OBSERVATIONS_PER_CHECK = 50;

/**
 * An answer whose text is longer than this keeps its text and forgets its parsed JSON (re-parsed
 * when read, src/runner/lazy-json.ts): the spec's largest answer (a run with 100 candidates) is
 * about 60 KB, while a 600 KB answer of 2e5 `{}` parses into about 11 MB of objects (6 MB: 110 MB).
 */
export const LAZY_JSON_ABOVE_CHARS = 256 * 1024;

/**
 * What results.json keeps of a body in an exchange of a check that passed (failures keep the whole
 * record, up to RECORDED_BODY_LIMIT): a clean embedded run's record is 2.4 MB instead of 4.4 MB
 * (npm run bench:reports), and the size and SHA-256 still identify the body.
 */
export const PASSED_BODY_CHARS = 256;

/** Rendered values in observations (received, expected) are cut at this many characters. */
export const RENDERED_VALUE_CHARS = 240;

/**
 * Requests in flight at once after a target answered a body over LAZY_JSON_ABOVE_CHARS
 * (src/runner/answer-gate.ts): the client parses each answer in one synchronous step, so this bounds
 * both the parsed answers alive at once and how long a signal waits for the event loop.
 */
export const MAX_LARGE_ANSWERS_IN_FLIGHT = 2;
