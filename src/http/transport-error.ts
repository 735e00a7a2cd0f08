// A broken target is evidence, not an exception: every way a request can fail below HTTP is named
// by one stable code, so checks and reports can say what happened without parsing messages.

type TransportErrorCode =
  | 'timeout'
  | 'connection_refused'
  | 'connection_reset'
  | 'invalid_http'
  | 'body_too_large'
  | 'dns'
  | 'unreachable'
  | 'tls'
  | 'invalid_request'
  | 'aborted'
  | 'closed'
  | 'network'
  // A spare request (the exploration) that found no budget left unused before the other checks ended: never sent.
  | 'no_spare_budget';

export interface TransportError {
  code: TransportErrorCode;
  message: string;
}

const BY_CODE: Record<string, TransportErrorCode> = {
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  ETIMEDOUT: 'timeout',
  ECONNREFUSED: 'connection_refused',
  ECONNRESET: 'connection_reset',
  EPIPE: 'connection_reset',
  // undici's "other side closed": the socket ended before a complete response.
  UND_ERR_SOCKET: 'connection_reset',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'invalid_http',
  UND_ERR_HEADERS_OVERFLOW: 'invalid_http',
  UND_ERR_RES_EXCEEDED_MAX_SIZE: 'body_too_large',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_FAIL: 'dns',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  EHOSTDOWN: 'unreachable',
  UND_ERR_INVALID_ARG: 'invalid_request',
  UND_ERR_REQ_CONTENT_LENGTH_MISMATCH: 'invalid_request',
  UND_ERR_NOT_SUPPORTED: 'invalid_request',
  UND_ERR_ABORTED: 'aborted',
  ABORT_ERR: 'aborted',
  UND_ERR_DESTROYED: 'closed',
  UND_ERR_CLOSED: 'closed',
};

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function classify(err: unknown): TransportErrorCode | undefined {
  const code = errorCode(err);
  if (code && BY_CODE[code]) return BY_CODE[code];
  // llhttp errors carry codes like HPE_INVALID_CONSTANT, or none at all.
  if (code?.startsWith('HPE_') || (err instanceof Error && err.name === 'HTTPParserError')) return 'invalid_http';
  if (
    code &&
    (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code))
  ) {
    return 'tls';
  }
  return undefined;
}

/**
 * OpenSSL's reading of a plain-HTTP answer to its ClientHello (`https://` to an `http://` port):
 * "wrong version number", or "packet length too long" / "http request" on other builds.
 */
const PLAIN_HTTP_ON_TLS =
  /ERR_SSL_WRONG_VERSION_NUMBER|wrong version number|packet length too long|ERR_SSL_HTTP_REQUEST|http request/i;

/** The one clear sentence for a TLS handshake answered in plain HTTP, instead of OpenSSL's raw record error. */
export const PLAIN_HTTP_ON_TLS_MESSAGE =
  'the port answered in plain HTTP, not TLS: the address says https:// but the server there speaks http://';

/** Whether a failed TLS handshake was answered by a server speaking plain HTTP. */
export function isPlainHttpOnTls(code: string | undefined, message: string): boolean {
  return PLAIN_HTTP_ON_TLS.test(`${code ?? ''} ${message}`);
}

/** The same address over http://, for the fix a message names. */
export function asPlainHttp(url: string): string {
  return url.replace(/^https:/i, 'http:');
}

/** Maps whatever undici or the socket threw to a transport error; unknown failures are 'network'. */
export function toTransportError(err: unknown): TransportError {
  let current: unknown = err;
  // The informative error is sometimes the cause of a generic wrapper (fetch-style TypeError).
  for (let depth = 0; depth < 4 && current; depth++) {
    const code = classify(current);
    if (code === 'tls' && isPlainHttpOnTls(errorCode(current), describe(current)))
      return { code, message: PLAIN_HTTP_ON_TLS_MESSAGE };
    if (code) return { code, message: describe(current) };
    current = (current as { cause?: unknown }).cause;
  }
  return { code: 'network', message: describe(err) };
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const code = errorCode(err);
  return code && !err.message.includes(code) ? `${err.message} (${code})` : err.message;
}
