// What node's HTTP parser refuses (a garbage request line, a duplicate Content-Length, headers over the
// size limit, a malformed chunk) never becomes a request the app could answer, and node's own answer is a
// bare status line with an empty body; the spec wants the JSON envelope on every non-2xx answer.
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorMessage, type Lang } from './messages.js';

interface Refusal {
  status: number;
  error: string;
  message?: Record<Lang, string>;
}

// The spec leaves malformed-request codes open ("handle it by HTTP status"); the statuses are node's own.
const REFUSALS: Record<string, Refusal> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    error: 'headers_too_large',
    message: { he: 'כותרות הבקשה גדולות מדי.', en: 'The request headers are too large.' },
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, error: 'payload_too_large' },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    error: 'request_timeout',
    message: { he: 'הבקשה לא הגיעה במלואה בזמן.', en: 'The request did not arrive in time.' },
  },
};
const MALFORMED: Refusal = { status: 400, error: 'invalid_request' };

/** Errors of a connection that is already gone: nothing can be answered on it. */
const GONE = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

export interface ClientErrorOptions {
  /** Whether answers carry `x-svc-environment: sandbox`. */
  sandboxHeader: boolean;
  /** Content type and body form of the sandbox's JSON (conformant variants may change them). */
  contentType: string;
  encodeBody(bytes: Buffer, status: number): Buffer;
  /** The latest response of each connection, to tell a refused new message from a broken body. */
  responses: WeakMap<Duplex, ServerResponse>;
  /** How long a connection being closed keeps reading (and dropping) what the client still sends. */
  lingerMs: number;
}

/** A `clientError` listener: the JSON envelope written on the socket, which is then closed. */
export function clientErrorHandler(opts: ClientErrorOptions): (err: Error & { code?: string }, socket: Duplex) => void {
  const refused = new WeakSet<Duplex>();
  return (err, socket) => {
    // Node reports the same parse error again for every later chunk of a refused connection.
    if (refused.has(socket)) return;
    refused.add(socket);
    if (!socket.writable || GONE.has(err.code ?? '') || answeredAlready(opts.responses.get(socket))) {
      socket.destroy();
      return;
    }
    const refusal = REFUSALS[err.code ?? ''] ?? MALFORMED;
    socket.end(encode(refusal, opts));
    // Closing with unread input resets the connection, which can destroy the answer in flight; what
    // the client still sends is read and dropped by node's parser until it stops or the time is up.
    const timer = setTimeout(() => socket.destroy(), opts.lingerMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  };
}

/**
 * An answer was already written for the message the error is in (a body broken after an early 413):
 * a second answer would be read as the reply to a request never sent.
 */
function answeredAlready(res: ServerResponse | undefined): boolean {
  return res !== undefined && res.headersSent && !(res.writableFinished && res.req.complete);
}

function encode(refusal: Refusal, opts: ClientErrorOptions): Buffer {
  // Nothing of the request could be read, its x-svc-lang neither: the sandbox's default language.
  const lang: Lang = 'he';
  const message = refusal.message?.[lang] ?? errorMessage(refusal.error, lang);
  const body = opts.encodeBody(Buffer.from(JSON.stringify({ error: refusal.error, message }), 'utf8'), refusal.status);
  const headers: Record<string, string> = {
    'content-type': opts.contentType,
    'content-length': String(body.length),
    'cache-control': 'no-store',
    ...(opts.sandboxHeader ? { 'x-svc-environment': 'sandbox' } : {}),
    connection: 'close',
  };
  const head = `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ''}\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}
