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
 * An answer whose text is longer than this is kept in a file, read when a check reads its text and
 * parsed when it reads its JSON, each held weakly (src/http/answer.ts, src/http/spilled-text.ts): the spec's largest answer is about 60 KB, while a hostile 6 MB
 * answer parses into about 130 MB of objects in 0.5 s, and a check that reads only the status must
 * not pay that. Below it an answer is parsed at once, as always.
 */
export const LAZY_JSON_ABOVE_CHARS = 256 * 1024;

/**
 * Large answers whose text, and whose parsed JSON, stay in memory after they were last read
 * (src/http/recently-read.ts): checks that resume together read the same few answers in turn, and
 * the rest costs only its file.
 */
export const LARGE_ANSWERS_KEPT = 2;
