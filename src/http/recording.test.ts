import { describe, expect, it } from 'vitest';
import { createRedactor } from '../config/redact.js';
import type { Outgoing } from './exchange.js';
import { recordExchange } from './recording.js';

const KEY = 'spk_live_' + '0123456789abcdef'.repeat(3);
const req: Outgoing = {
  method: 'POST',
  url: `http://h/v1/x?k=${KEY}`,
  headers: { 'x-partner-key': KEY },
  body: '{"a":"é"}',
  bodyText: '{"a":"é"}',
};
const redactor = createRedactor([{ value: KEY, envVar: 'SVC_PARTNER_KEY' }]);
const startedAt = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));

describe('recordExchange', () => {
  it('records request, answer, labels and a curl line, every field redacted', () => {
    const rec = recordExchange(
      {
        labels: ['setup', undefined, `redeem ${KEY}`],
        req,
        exchanged: {
          incoming: { status: 201, headers: { 'x-echo': KEY }, bytes: Buffer.alloc(0), received: 2 },
          startedAt,
          durationMs: 12.6,
        },
        text: '{}',
      },
      redactor,
    );
    expect(rec).toMatchObject({
      label: 'setup: redeem spk_live_012…',
      startedAt: '2026-01-02T03:04:05.000Z',
      durationMs: 13,
      request: {
        method: 'POST',
        url: 'http://h/v1/x?k=spk_live_012…',
        headers: { 'x-partner-key': 'spk_live_012…' },
        body: '{"a":"é"}',
        bodyBytes: 10,
      },
      response: { status: 201, headers: { 'x-echo': 'spk_live_012…' }, body: '{}', bodyBytes: 2 },
    });
    expect(rec.curl).toContain(`'x-partner-key: '"$SVC_PARTNER_KEY"`);
    expect(JSON.stringify(rec)).not.toContain(KEY);
    expect(rec.transportError).toBeUndefined();
  });

  it('marks an answer over the size cap as cut, and records a transport error redacted, without a label when none is given', () => {
    const over = recordExchange(
      {
        labels: [undefined, ''],
        req,
        exchanged: {
          incoming: { status: 200, headers: {}, bytes: Buffer.alloc(0), received: 9_000_000 },
          error: { code: 'body_too_large', message: `too large for ${KEY}` },
          startedAt,
          durationMs: 1,
        },
        text: 'xx',
      },
      redactor,
    );
    expect(over.label).toBeUndefined();
    expect(over.response).toMatchObject({ status: 200, bodyTruncated: true, bodyBytes: 9_000_000 });
    expect(over.transportError).toEqual({ code: 'body_too_large', message: 'too large for spk_live_012…' });
    const timedOut = { error: { code: 'timeout' as const, message: 't' }, startedAt, durationMs: 0 };
    const none = recordExchange({ labels: [], req, exchanged: timedOut, text: '' }, redactor);
    expect(none.response).toBeUndefined();
  });
});
