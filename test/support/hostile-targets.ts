// Hostile targets for `svc-certify run`, started in the test's (or bench's) process on 127.0.0.1.
//
// The inflating proxy stands in front of a real reference sandbox and swells every JSON object it
// answers with two arrays of `count` empty objects (`{}`, 3 bytes each: 1e6 elements ≈ 6 MB per
// answer): `candidates` and `requirements`. Where the answer already has such an array the elements
// are put in front of the real ones; elsewhere the two members are added. A `{}` is no candidate nor
// requirement, so every answer the schemas judge fails per element, and every other answer carries
// megabytes the certifier must read and judge: what the issue's "7.5 MB JSON with two 1e6-element
// arrays" target did. The text is edited, never re-serialized, so int64 ids stay exact.

import { createServer, request, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer } from 'node:net';
import { listening, readAll } from './loopback-server.js';
import { selfSignedCertificate } from './self-signed.js';
import { startSandbox, type Provision, type RunningSandbox } from '../../src/sandbox/index.js';

export interface InflatingTarget {
  /** The proxy's base URL, ending in /v1. */
  baseUrl: string;
  provision: Provision;
  close(): Promise<void>;
}

const ARRAY_MEMBERS = ['candidates', 'requirements'] as const;

function inflate(body: string, padding: string): string {
  let out = body;
  let added = '';
  for (const name of ARRAY_MEMBERS) {
    const open = `"${name}":[`;
    const at = out.indexOf(open);
    if (at >= 0) {
      const empty = out[at + open.length] === ']';
      out = `${out.slice(0, at + open.length)}${padding}${empty ? '' : ','}${out.slice(at + open.length)}`;
    } else added += `${open}${padding}],`;
  }
  if (added === '') return out;
  const brace = out.indexOf('{');
  const rest = out.slice(brace + 1).trimStart();
  return `${out.slice(0, brace + 1)}${rest.startsWith('}') ? added.slice(0, -1) : added}${rest}`;
}

/** A sandbox (time scale `timeScale`) behind a proxy that inflates every JSON object answer by 2 × `count` elements. */
export async function startInflatingTarget(count: number, timeScale = 60): Promise<InflatingTarget> {
  const sandbox: RunningSandbox = await startSandbox({ timeScale, allowLoopbackWebhooks: true });
  const upstream = new URL(sandbox.baseUrl);
  const padding = Array.from({ length: count }, () => '{}').join(',');
  const server: Server = createServer((req, res) => {
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        void readAll(answer).then((raw) => {
          const text = raw.toString('utf8');
          const json = /json/.test(String(answer.headers['content-type'])) && text.trimStart().startsWith('{');
          const body = json ? Buffer.from(inflate(text, padding)) : raw;
          const headers = { ...answer.headers, 'content-length': String(body.length) };
          delete headers['transfer-encoding'];
          res.writeHead(answer.statusCode ?? 502, headers);
          res.end(body);
        });
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  const proxy = await listening(server);
  return {
    baseUrl: proxy.baseUrl,
    provision: sandbox.provision(),
    async close() {
      await proxy.close();
      await sandbox.close();
    },
  };
}

/** A server whose every answer is `bytes` of `a` in a chunked 200 JSON body, written as fast as the client reads. */
export function startChunkedFlood(bytes: number): Promise<HostileTarget> {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    let sent = 0;
    let closed = false;
    res.on('close', () => (closed = true));
    const pump = (): void => {
      while (!closed && sent < bytes) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  });
  return listening(server);
}

export interface HostileTarget {
  /** The base URL, ending in /v1. */
  baseUrl: string;
  close(): Promise<void>;
}

/** How a misbehaving target answers every request (the matrix's `run` rows). */
export type Misbehaviour = 'redirect-loop' | 'reset' | 'gigabyte' | 'self-signed';

const GIGABYTE = 1024 ** 3;

/**
 * A target misbehaving on every request: `redirect-loop` answers 302 to the path it was asked
 * (a client that follows never ends), `reset` closes each connection without a byte, `gigabyte`
 * declares and streams a 1 GiB JSON body as fast as it is read, `self-signed` answers a plain JSON
 * 200 over TLS with a certificate no CA signed.
 */
export async function startMisbehaving(kind: Misbehaviour): Promise<HostileTarget> {
  if (kind === 'reset') {
    return listening(
      createNetServer((s) => {
        s.on('error', () => undefined);
        s.once('data', () => s.resetAndDestroy());
      }),
      'http',
    );
  }
  if (kind === 'self-signed') {
    const server = createHttpsServer(selfSignedCertificate(), (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    return listening(server, 'https');
  }
  if (kind === 'redirect-loop') {
    return listening(
      createServer((req, res) => {
        req.resume();
        res.writeHead(302, { location: req.url ?? '/', 'content-type': 'application/json' });
        res.end('{"error":"moved","message":"try again"}');
      }),
      'http',
    );
  }
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  return listening(
    createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(GIGABYTE) });
      let sent = 0;
      let closed = false;
      res.on('close', () => (closed = true));
      const pump = (): void => {
        while (!closed && sent < GIGABYTE) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    }),
    'http',
  );
}

/** A target that answers the first request (the pre-flight) and then, per `kind`, never again or one byte a second. */
export interface StallingTarget extends HostileTarget {
  /** Resolves once the target holds a request past the pre-flight. */
  stalled: Promise<void>;
}

/**
 * The pre-flight (the first request) is answered as the API would (404 run_not_found, JSON, with
 * x-svc-environment: sandbox); every later request is held: `silent` never answers, `trickle` sends
 * the status line and headers of a 200 JSON answer, then one byte of its body a second.
 */
export async function startStallingTarget(kind: 'silent' | 'trickle'): Promise<StallingTarget> {
  let seen = 0;
  let onStall: () => void = () => undefined;
  const stalled = new Promise<void>((r) => (onStall = r));
  const drips = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    req.resume();
    seen += 1;
    if (seen === 1) {
      res.writeHead(404, { 'content-type': 'application/json', 'x-svc-environment': 'sandbox' });
      res.end('{"error":"run_not_found","message":"no such run"}');
      return;
    }
    onStall();
    if (kind === 'silent') return;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
    res.write('{');
    const drip = setInterval(() => {
      if (res.destroyed) return void clearInterval(drip);
      res.write(' ');
    }, 1000);
    drips.add(drip);
    res.on('close', () => {
      clearInterval(drip);
      drips.delete(drip);
    });
  });
  const target = await listening(server, 'http');
  return {
    ...target,
    stalled,
    async close() {
      for (const d of drips) clearInterval(d);
      await target.close();
    },
  };
}

/** A webhook endpoint that accepts connections and reads requests but never answers one. */
export async function startSilentEndpoint(): Promise<{ url: string; reached: Promise<void>; close(): Promise<void> }> {
  let onReach: () => void = () => undefined;
  const reached = new Promise<void>((r) => (onReach = r));
  const target = await listening(
    createServer((req) => {
      req.resume();
      onReach();
    }),
    'http',
  );
  return { url: target.baseUrl.replace(/\/v1$/, '/hooks/partner'), reached, close: () => target.close() };
}
