// The record of one HTTP exchange, as every report shows it. It lives with the HTTP layer that makes
// it, so that the layer never imports the runner that uses it.

export interface RecordedMessage {
  headers: Record<string, string>;
  /** Body as text, secrets redacted, cut at a size limit. */
  body?: string;
  bodyTruncated?: boolean;
  bodyBytes?: number;
  /** SHA-256 (hex) of the whole body as read, secrets redacted, when the body kept is cut. */
  bodySha256?: string;
}

/**
 * One HTTP exchange made by a check (or by shared setup on its behalf), secrets redacted. It has no
 * number of its own: the check that keeps it numbers it (CheckExchange, src/runner/results.ts).
 */
export interface RecordedExchange {
  label?: string;
  startedAt: string;
  durationMs: number;
  request: RecordedMessage & { method: string; url: string };
  response?: RecordedMessage & { status: number };
  /** Transport failure: reset, time-out, refused, garbage bytes. */
  transportError?: { code: string; message: string };
  /**
   * Reproduction with secrets as shell variables ($SVC_PARTNER_KEY, $SVC_ORG_TOKEN). Absent in a passed
   * or skipped check's exchange once its evidence is capped (the request it would repeat is there).
   */
  curl?: string;
}
