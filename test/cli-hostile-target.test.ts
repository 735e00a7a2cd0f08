// A hostile or broken target: garbage bytes, resets, hangs, huge bodies, non-JSON. The certifier must
// turn each into failed checks with evidence, never crash, never report an engine error for the
// target's misbehaviour, and still write every report.

import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_FILES, run, tmp } from './cli-support.js';

const KEY = `spk_live_${'ab'.repeat(24)}`;
const ORG = `sot_${'cd'.repeat(24)}`;

/** Misbehaves by path over a raw socket, so that nothing about HTTP can be taken for granted. */
function hostile(socket: Socket, head: string): void {
  const [requestLine = ''] = head.split('\r\n');
  const path = requestLine.split(' ')[1] ?? '';
  const reply = (status: string, headers: string[], body: string | Buffer) => {
    socket.end(
      Buffer.concat([
        Buffer.from(`HTTP/1.1 ${status}\r\n${headers.join('\r\n')}\r\nconnection: close\r\n\r\n`),
        Buffer.from(body),
      ]),
    );
  };
  if (!/^x-partner-key:/im.test(head)) {
    // Requests without a partner key hang: headers never come. The client's time-out (30 s) must end them.
    return;
  }
  if (/^\/v1\/runs\/[0-9a-f-]{36}$/.test(path)) {
    // Reads of runs (the pre-flight among them) look almost right: a JSON 404, no environment header.
    reply(
      '404 Not Found',
      ['content-type: application/json; charset=utf-8'],
      '{"error":"run_not_found","message":"no such run"}',
    );
  } else if (path.startsWith('/v1/users')) {
    socket.destroy(); // reset
  } else if (path.startsWith('/v1/jobs')) {
    socket.end('\x00\x01\x02 this is not HTTP at all \xff\xfe\r\n\r\n'); // garbage bytes
  } else if (path.startsWith('/v1/activations')) {
    // A body far larger than any answer should be, with a declared length.
    const size = 12 * 1024 * 1024;
    socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${size}\r\n\r\n`);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    const pump = () => {
      while (sent < size && !socket.destroyed) {
        sent += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
      socket.end();
    };
    pump();
  } else {
    reply('200 OK', ['content-type: text/html'], '<html>not json</html>');
  }
}

describe('svc-certify run against a hostile target', () => {
  let server: Server;
  let baseUrl = '';
  const sockets = new Set<Socket>();

  beforeAll(async () => {
    server = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      let head = '';
      socket.on('error', () => undefined);
      socket.on('data', (d) => {
        if (head.includes('\r\n\r\n')) return;
        head += d.toString('latin1');
        if (head.includes('\r\n\r\n')) hostile(socket, head);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = server.address();
    baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1`;
  });

  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  });

  it('fails checks with evidence, never crashes, and writes every report', async () => {
    const cwd = tmp();
    const r = await run(
      [
        'run',
        '--base-url',
        baseUrl,
        '--org-token',
        ORG,
        '--activation-code',
        'SVC-ABCD-EFGH',
        '--environment',
        'sandbox',
        '--time-scale',
        '600',
        '--report-dir',
        'out',
      ],
      { cwd, env: { SVC_PARTNER_KEY: KEY } },
    );
    expect(r.stderr).not.toMatch(/at .+\(.+:\d+:\d+\)/); // no stack trace
    expect(r.code).toBe(1);
    for (const f of REPORT_FILES) expect(existsSync(join(cwd, 'out', f)), f).toBe(true);
    const results = JSON.parse(readFileSync(join(cwd, 'out', 'results.json'), 'utf8')) as {
      summary: { failed: number; error: number };
      checks: Array<{
        id: string;
        status: string;
        message: string;
        exchanges: Array<{ transportError?: { code: string }; response?: { status: number } }>;
      }>;
    };
    expect(results.summary.failed).toBeGreaterThan(10);
    // The target's misbehaviour is a failure of the target, never an engine error.
    expect(results.checks.filter((c) => c.status === 'error').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    // Each kind of misbehaviour is on record as evidence.
    const codes = new Set(
      results.checks.flatMap((c) => c.exchanges.map((e) => e.transportError?.code)).filter(Boolean),
    );
    for (const code of ['connection_reset', 'invalid_http', 'body_too_large', 'timeout'])
      expect([...codes], code).toContain(code);
    for (const text of [
      r.stdout,
      readFileSync(join(cwd, 'out', 'junit.xml'), 'utf8'),
      readFileSync(join(cwd, 'out', 'report.html'), 'utf8'),
    ]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(ORG);
    }
  }, 180_000);
});
