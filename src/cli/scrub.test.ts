import { describe, expect, it } from 'vitest';
import { rememberSecrets } from '../config/secret-options.js';
import { scrub } from './scrub.js';

const SECRET = 'whsec-Q7z9wLmN4pX2';
const KEY = `spk_live_${'9f'.repeat(24)}`;

describe('the last-resort scrub of an error message', () => {
  it.each([
    [
      'run, flag form',
      [
        'node',
        'svc-certify',
        'run',
        '--base-url',
        'https://x.example/v1',
        '--partner-key',
        KEY,
        '--webhook-secret',
        SECRET,
      ],
      {},
    ],
    ['run, --flag=value form', ['node', 'svc-certify', 'run', `--webhook-secret=${SECRET}`], {}],
    [
      'receiver, flag form',
      ['node', 'svc-certify', 'receiver', '--url', 'https://x.example/h', '--webhook-secret', SECRET],
      {},
    ],
    [
      'receiver, variable form',
      ['node', 'svc-certify', 'receiver', '--url', 'https://x.example/h'],
      { SVC_WEBHOOK_SECRET: SECRET },
    ],
  ] as const)('%s: the secrets of the command that ran, in clear, percent-encoded or base64', (_name, argv, env) => {
    const message = `boom at ${SECRET} / ${encodeURIComponent(SECRET)} / Basic ${Buffer.from(`x:${SECRET}`).toString('base64')}`;
    const out = scrub(message, argv, env);
    expect(out).not.toContain(SECRET.slice(8));
    expect(out).not.toContain(Buffer.from(`x:${SECRET}`).toString('base64').slice(4, 20));
    expect(out).toContain('boom at');
  });

  it('secrets the session learned (a provision) are scrubbed from any command', () => {
    const provisioned = 'provisioned-webhook-secret-0f3a9c';
    expect(scrub(`failed: ${provisioned}`, ['node', 'svc-certify', 'partner'], {})).toContain(provisioned);
    rememberSecrets([{ value: provisioned, envVar: 'SVC_WEBHOOK_SECRET' }]);
    expect(scrub(`failed: ${provisioned}`, ['node', 'svc-certify', 'partner'], {})).not.toContain(provisioned.slice(8));
  });

  it('takes a 10,000-character secret and 2,000 learned ones without throwing, and hides each', () => {
    const long = `sot_${'ab'.repeat(5000)}`;
    rememberSecrets(
      Array.from({ length: 2000 }, (_, i) => ({
        value: `t${i.toString(16).padStart(7, '0')}`,
        envVar: 'SVC_ORG_TOKEN',
      })),
    );
    const argv = ['node', 'svc-certify', 'run', '--org-token', long, '--partner-key', KEY];
    const out = scrub(`failed: ${long} ${KEY.slice(9)} t00007cf`, argv, {});
    expect(out).not.toContain('ab'.repeat(20));
    expect(out).not.toContain(KEY.slice(9));
    expect(out).not.toContain('t00007cf');
    expect(out.length).toBeLessThanOrEqual(2_100);
  });

  it('neutralises control characters: an error message is no terminal command', () => {
    const out = scrub('bad \u001b]52;c;ZWNobw==\u0007 name \u0000 \u009b31m', ['node', 'svc-certify', 'report'], {});
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(out).toContain('\\x1B]52');
  });
});
