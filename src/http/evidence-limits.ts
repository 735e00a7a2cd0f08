// What the HTTP layer keeps of a message as evidence. The certifier judges the whole body it read
// (within the client's body limit); a report keeps this much of it, with the size and SHA-256 of
// what it read so the rest can still be identified. The runner's caps sit in src/runner/limits.ts.

/**
 * Recorded bodies are cut at this many characters: enough for any answer of the spec (the largest,
 * a run with 100 candidates, is about 60 KB), while a hostile target answering 6 MB bodies to 274
 * requests would otherwise put 1.6 GB of evidence in memory and tens of MB in each report.
 */
export const RECORDED_BODY_LIMIT = 64 * 1024;

/**
 * An answer whose text is longer than this is parsed only when a check reads its JSON, into a value
 * held weakly (src/http/answer.ts): the spec's largest answer is about 60 KB, while a hostile 6 MB
 * answer parses into about 130 MB of objects in 0.5 s, and a check that reads only the status must
 * not pay that. Below it an answer is parsed at once, as always.
 */
export const LAZY_JSON_ABOVE_CHARS = 256 * 1024;
