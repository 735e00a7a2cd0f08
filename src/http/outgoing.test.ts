import { describe, expect, it } from 'vitest';
import { JsonDecimal } from '../json/lossless.js';
import { buildOutgoing, joinUrl } from './outgoing.js';
import type { Credentials } from './outgoing.js';

function creds(): Credentials & { reads: number } {
  const c = {
    baseUrl: 'http://h/v1/',
    partnerKey: 'spk_key',
    userAgent: 'svc-certify/test',
    reads: 0,
    orgToken: () => (c.reads++, 'sot_tok'),
  };
  return c;
}

describe('joinUrl', () => {
  it('puts exactly one slash between base and path', () => {
    expect(joinUrl('http://h/v1/', '/runs')).toBe('http://h/v1/runs');
    expect(joinUrl('http://h/v1', 'runs?x=1')).toBe('http://h/v1/runs?x=1');
  });
});

describe('buildOutgoing', () => {
  it('sends partner key and org token by default, reading the token only then', () => {
    const c = creds();
    const out = buildOutgoing({ method: 'get', path: '/runs', lang: 'he' }, c);
    expect(out).toEqual({
      method: 'GET',
      url: 'http://h/v1/runs',
      headers: {
        'user-agent': 'svc-certify/test',
        accept: 'application/json',
        'x-partner-key': 'spk_key',
        'x-svc-org': 'sot_tok',
        'x-svc-lang': 'he',
      },
    });
    expect(c.reads).toBe(1);
    expect(buildOutgoing({ method: 'GET', path: '/x', auth: 'partner' }, c).headers['x-svc-org']).toBeUndefined();
    expect(buildOutgoing({ method: 'GET', path: '/x', auth: 'none' }, c).headers).toEqual({
      'user-agent': 'svc-certify/test',
      accept: 'application/json',
    });
    expect(c.reads).toBe(1);
    const other = buildOutgoing({ method: 'GET', path: '/x', auth: { orgToken: 'sot_other' } }, c).headers;
    expect([other['x-partner-key'], other['x-svc-org']]).toEqual([undefined, 'sot_other']);
  });

  it('writes a JSON body losslessly, sends a raw body byte for byte, and lets the caller override headers', () => {
    const json = buildOutgoing(
      { method: 'POST', path: '/x', body: { id: 9007199254740993n, f: new JsonDecimal('1.0') } },
      creds(),
    );
    expect(json.body).toBe('{"id":9007199254740993,"f":1.0}');
    expect(json.bodyText).toBe(json.body);
    expect(json.headers['content-type']).toBe('application/json');
    const bytes = Uint8Array.from([0x7b, 0xc3, 0xa9]);
    const raw = buildOutgoing(
      {
        method: 'POST',
        path: '/x',
        rawBody: bytes,
        headers: { 'Content-Type': 'text/plain', 'X-Partner-Key': 'spoof' },
      },
      creds(),
    );
    expect(raw.body).toBe(bytes);
    expect(raw.bodyText).toBe('{é');
    expect(raw.headers['content-type']).toBe('text/plain');
    expect(raw.headers['x-partner-key']).toBe('spoof');
  });
});
