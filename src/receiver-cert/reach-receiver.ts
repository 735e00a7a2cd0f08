// Before any delivery: can the endpoint be reached at all, and does its TLS verify? A receiver that is
// down, or whose certificate this machine cannot verify, is a usage error (exit 2) naming the fix, not
// thirteen failed checks repeating one transport error. Only a connection is made (and for https the
// TLS handshake); no delivery is sent.

import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { asPlainHttp, isPlainHttpOnTls, PLAIN_HTTP_ON_TLS_MESSAGE } from '../http/transport-error.js';

class ReceiverUnreachableError extends Error {
  override readonly name = 'ReceiverUnreachableError';
}

/** The same time a delivery gets for its answer (Limits: 10 seconds). */
const CONNECT_TIMEOUT_MS = 10_000;

const TLS_HINT =
  'for a self-signed staging certificate pass --insecure; for a private CA, point NODE_EXTRA_CA_CERTS at its certificate (PEM) and run again';

export async function reachReceiver(opts: {
  url: string;
  insecure: boolean;
  timeoutMs?: number;
  /** The certification's own signal: stops trying at once (the checks then end interrupted). */
  signal?: AbortSignal;
}): Promise<void> {
  if (opts.signal?.aborted) return;
  const url = new URL(opts.url);
  const https = url.protocol === 'https:';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port || (https ? 443 : 80));
  const timeoutMs = opts.timeoutMs ?? CONNECT_TIMEOUT_MS;
  await new Promise<void>((resolve, reject) => {
    let socket: Socket;
    const fail = (why: string): void => {
      socket.destroy();
      reject(new ReceiverUnreachableError(why));
    };
    const onError = (e: NodeJS.ErrnoException): void => {
      const code = e.code ?? e.name;
      if (https && isPlainHttpOnTls(code, e.message)) {
        fail(
          `receiver: ${url.origin}: ${PLAIN_HTTP_ON_TLS_MESSAGE}; give --url as ${asPlainHttp(url.href)} (with --allow-private on a private host), or the endpoint's TLS port`,
        );
      } else if (
        https &&
        /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|HOSTNAME|ALTNAME|ERR_TLS|SSL/i.test(`${code} ${e.message}`)
      ) {
        fail(`receiver: the TLS certificate of ${url.origin} does not verify (${code}: ${e.message}); ${TLS_HINT}`);
      } else {
        fail(`receiver unreachable: ${url.origin} (${code}: ${e.message}); check --url and that the endpoint is up`);
      }
    };
    socket = https
      ? tlsConnect(
          {
            host,
            port,
            servername: /^[\d.:]+$/.test(host) ? undefined : host,
            rejectUnauthorized: !opts.insecure,
            ALPNProtocols: ['http/1.1'],
          },
          () => {
            socket.end();
            resolve();
          },
        )
      : tcpConnect({ host, port }, () => {
          socket.end();
          resolve();
        });
    socket.setTimeout(timeoutMs, () =>
      fail(
        `receiver unreachable: ${url.origin} did not ${https ? 'complete a TLS handshake' : 'accept a connection'} within ${timeoutMs / 1000} s; check --url and that the endpoint is up`,
      ),
    );
    socket.on('error', onError);
    const onAbort = (): void => {
      socket.destroy();
      resolve();
    };
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    socket.on('close', () => opts.signal?.removeEventListener('abort', onAbort));
  });
}
