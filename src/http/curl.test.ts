import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { createServer } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../config/redact.js';
import { renderCurl } from './curl.js';

const KEY = 'spk_live_' + '0123456789abcdef'.repeat(3);
const TOKEN = 'sot_' + 'fedcba9876543210'.repeat(3);

function redactor() {
  return createRedactor([
    { value: KEY, envVar: 'SVC_PARTNER_KEY' },
    { value: TOKEN, envVar: 'SVC_ORG_TOKEN' },
  ]);
}

describe('renderCurl', () => {
  it('names secrets as shell variables, one header per -H', () => {
    const curl = renderCurl(
      { method: 'POST', url: 'http://h/v1/runs', headers: { 'x-partner-key': KEY, 'x-svc-org': TOKEN }, body: '{}' },
      redactor(),
    );
    expect(curl).not.toContain(KEY);
    expect(curl).not.toContain(TOKEN);
    expect(curl).toContain(`-H 'x-partner-key: '"$SVC_PARTNER_KEY"`);
    expect(curl).toContain(`-H 'x-svc-org: '"$SVC_ORG_TOKEN"`);
    expect(curl).toContain(`--data-raw '{}'`);
    execFileSync('bash', ['-n'], { input: curl });
  });

  it('reproduces the exact request when run with the variables exported', async () => {
    let seen: { req: IncomingMessage; body: string } | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen = { req, body: Buffer.concat(chunks).toString('utf8') };
        res.end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/runs?q=it's`;
      const body = `{"note":"it's $(rm -rf /) \`id\` \\"q\\" ${KEY}\\n","n":9223372036854775807}`;
      const curl = renderCurl(
        {
          method: 'POST',
          url,
          headers: { 'x-partner-key': KEY, 'x-svc-org': '', 'content-type': 'application/json', 'x-odd': `a'b"c` },
          body,
        },
        redactor(),
      );
      // Asynchronously: the server answering curl lives in this very event loop.
      await promisify(execFile)('bash', ['-c', curl], {
        timeout: 20_000,
        env: { PATH: process.env.PATH, SVC_PARTNER_KEY: KEY, SVC_ORG_TOKEN: TOKEN },
      });
      expect(seen?.body).toBe(body);
      expect(seen?.req.url).toBe("/v1/runs?q=it's");
      expect(seen?.req.headers['x-partner-key']).toBe(KEY);
      expect(seen?.req.headers['x-svc-org']).toBe('');
      expect(seen?.req.headers['x-odd']).toBe(`a'b"c`);
      expect(seen?.req.headers['content-type']).toBe('application/json');
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('says when a huge body was cut', () => {
    const curl = renderCurl(
      { method: 'POST', url: 'http://h/v1/x', headers: {}, body: 'x'.repeat(100_000) },
      redactor(),
    );
    expect(curl.startsWith('# request body cut to 65536 of 100000 characters\n')).toBe(true);
    expect(curl).toContain(`-H 'content-type:'`);
    execFileSync('bash', ['-n'], { input: curl });
  });
});
