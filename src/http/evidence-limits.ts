// What the HTTP layer keeps of a message as evidence. The certifier judges the whole body it read
// (within the client's body limit); a report keeps this much of it, with the size and SHA-256 of
// what it read so the rest can still be identified. The runner's caps sit in src/runner/limits.ts.

/**
 * Recorded bodies are cut at this many characters: enough for any answer of the spec (the largest,
 * a run with 100 candidates, is about 60 KB), while a hostile target answering 6 MB bodies to 274
 * requests would otherwise put 1.6 GB of evidence in memory and tens of MB in each report.
 */
export const RECORDED_BODY_LIMIT = 64 * 1024;
