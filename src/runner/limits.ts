// Every resource bound of `run`, with its reason, in one place. A hostile target (answers of
// megabytes, millions of array items) must cost bounded memory and time, and reports of a size a
// person can open; the certifier still judges the whole body it read within the HTTP client's body
// limit. The bounds of the layers below are stated where they act and named here:
// - src/http/evidence-limits.ts RECORDED_BODY_LIMIT: what an exchange record keeps of a body (64 KiB,
//   with its size and SHA-256 when cut); LAZY_JSON_ABOVE_CHARS: an answer longer than this is kept in
//   a file and read, and parsed, only when a check reads it (src/http/spilled-text.ts, its repeated
//   small items shared: src/json/compact.ts); LARGE_ANSWERS_KEPT: how many of those stay in memory
//   once read (src/http/recently-read.ts);
// - src/http/memory-valve.ts MEMORY_VALVE_RSS_BYTES: past it, a full collection around large answers;
// - src/schema/validator.ts DETAILED_ITEMS: the items of each array whose schema issues are listed
//   (the whole value is still judged).

export { LAZY_JSON_ABOVE_CHARS } from '../http/evidence-limits.js';

/**
 * Observations a check keeps; past it they are counted in one last "+K more" observation. A check
 * judging every item of a million-item answer would otherwise put a million observations in memory
 * and in every report, where no person reads past the first few dozen.
 */
export const MAX_OBSERVATIONS_PER_CHECK = 50;

/**
 * What results.json keeps of a body in an exchange of a check that passed (failures keep the whole
 * record, up to RECORDED_BODY_LIMIT): a clean embedded run's record is 2.4 MB instead of 4.4 MB
 * (npm run bench:reports), and the size and SHA-256 still identify the body.
 */
export const PASSED_BODY_CHARS = 256;

/**
 * What a report keeps of a body in an exchange of a check that did not pass, when no observation of
 * the check cites that exchange (src/runner/evidence-caps.ts): the cited ones keep RECORDED_BODY_LIMIT.
 */
export const CONTEXT_BODY_CHARS = 4096;

/**
 * Characters of an observation's message, expected and received value kept (src/runner/observation-text.ts):
 * a message naming each of a million bad items was megabytes in every report.
 */
export const OBSERVATION_TEXT_CHARS = 1000;

/** Rendered values in observations (received, expected) are cut at this many characters. */
export const RENDERED_VALUE_CHARS = 240;

/**
 * Requests in flight at once after a target answered a body over LAZY_JSON_ABOVE_CHARS
 * (src/runner/answer-gate.ts): it bounds the large bodies read (and decoded) in one turn of the event
 * loop, so how long a signal waits; a large answer's JSON is parsed when a check reads it.
 */
export const MAX_LARGE_ANSWERS_IN_FLIGHT = 2;
