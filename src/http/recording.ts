// The record of one exchange, redacted, as every report shows it, with a curl line to replay it.

import type { Redactor } from '../config/redact.js';
import { renderCurl } from './curl.js';
import type { Exchanged, Outgoing } from './exchange.js';
import { recordMessage } from './record.js';
import type { RecordedExchange } from './recorded-exchange.js';

export interface ExchangeToRecord {
  /** The client's prefix and the request's label, joined by ": " (either may be absent). */
  labels: ReadonlyArray<string | undefined>;
  req: Outgoing;
  exchanged: Exchanged;
  /** The answer's body as decoded for the check. */
  text: string;
}

export function recordExchange(
  { labels, req, exchanged, text }: ExchangeToRecord,
  redactor: Redactor,
): RecordedExchange {
  const { incoming, error } = exchanged;
  const label = labels.filter((s) => s !== undefined && s !== '').join(': ');
  const exchange: RecordedExchange = {
    ...(label ? { label: redactor.text(label) } : {}),
    startedAt: exchanged.startedAt.toISOString(),
    durationMs: Math.round(exchanged.durationMs),
    request: {
      method: req.method,
      url: redactor.text(req.url),
      ...recordMessage(
        req.headers,
        req.bodyText,
        req.body === undefined ? undefined : Buffer.byteLength(req.body),
        redactor,
      ),
    },
    curl: renderCurl({ method: req.method, url: req.url, headers: req.headers, body: req.bodyText }, redactor),
  };
  if (incoming) {
    exchange.response = {
      status: incoming.status,
      ...recordMessage(incoming.headers, text, incoming.received, redactor),
      // Only the first bytes of an answer over the limit were kept: the record says it is cut.
      ...(error?.code === 'body_too_large' ? { bodyTruncated: true } : {}),
    };
  }
  if (error) exchange.transportError = { code: error.code, message: redactor.text(error.message) };
  return exchange;
}
