// Every resource bound of `svc-certify scan`, in one place. The scanner reads files it did not
// write (a bundle folder, a HAR someone sent): a file built to exhaust memory or time must end in a
// report, never in a crash, and never in a silent pass. Each bound says what happens past it.

const MiB = 1 << 20;

/**
 * JSON nesting a HAR or source map may use before the structure is given up. A HAR is about 8
 * levels deep, a source map 3 (5 with sections); 1000 is far past any real file and keeps the
 * reader's stack small. Past it the file is searched again as plain text, so nothing goes unread.
 */
export const MAX_JSON_DEPTH = 1000;

/**
 * Characters of a member name kept for the JSON path (the whole name is still searched). A HAR's
 * names are short words; a longer one is only shown, cut.
 */
export const MAX_KEY_CHARS = 1024;

/** Characters of a JSON path shown in a finding (its start and its end; the middle is elided). */
export const MAX_LOCATION_HEAD_CHARS = 80;
export const MAX_LOCATION_TAIL_CHARS = 160;
/** Characters of one member name in a shown path: enough to recognise it, never a whole key. */
export const MAX_SEGMENT_CHARS = 40;

/**
 * Decompressed bytes read from one compressed file. A served bundle or a HAR is far smaller; past
 * it the file is reported "not scanned" (a failure: what was not read may hold a key). A plain,
 * uncompressed file has no such bound: it is read in bounded memory whatever its size.
 */
export const MAX_DECOMPRESSED_BYTES = 1024 * MiB;

/**
 * Decompressed size over compressed size. Text compresses 3 to 20 times with gzip or brotli and a
 * single deflate stream cannot pass about 1032; far above that is a compression bomb (gzip in gzip).
 * Checked only once the output passes RATIO_CHECK_FROM_BYTES: a small file may compress very well.
 */
export const MAX_DECOMPRESSION_RATIO = 200;
export const RATIO_CHECK_FROM_BYTES = 64 * MiB;

/**
 * Compression layers applied to one file, named by its extensions (`.gz`, `.br`) or found by the
 * gzip signature at the start of what a layer gave (gzip inside gzip). All layers count toward the
 * same decompressed bound; a file still compressed past this many layers is reported not scanned.
 */
export const MAX_DECOMPRESSION_LAYERS = 3;

/**
 * Source-map `sources` names kept to name where a finding sits. A bundle has hundreds to a few
 * thousand sources; past the first ones a finding is named by its index (`sourcesContent[i]`), so a
 * map with millions of entries does not become millions of kept strings.
 */
export const MAX_SOURCE_NAMES = 10_000;

/**
 * Findings waiting for a fact that comes later in the same JSON (a source's name, a response's
 * `"encoding": "base64"`). Past it, a finding goes out at once, named by its index, or reported even
 * though the encoding is not known yet: reported rather than held without bound.
 */
export const MAX_PENDING_FINDINGS = 5000;

/** Findings of a HAR or source map held until the file is known to be valid JSON (then released). */
export const MAX_HELD_FINDINGS = 10_000;

/** Findings kept per string (`spk_`, `sot_`) for the reports; the rest are counted. */
export const MAX_KEPT_FINDINGS = 1000;

/** FIFOs, sockets and devices met in a folder walk that are named in the report (the rest counted). */
export const MAX_SKIPPED_LISTED = 20;
