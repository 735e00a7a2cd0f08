import { describe, expect, it } from 'vitest';
import { JsonDecimal } from '../json/lossless.js';
import { apiResponse, mayCarryOrgToken, readBody } from './answer.js';
import { LAZY_JSON_ABOVE_CHARS } from './evidence-limits.js';
import type { Incoming } from './exchange.js';
import type { RecordedExchange } from './recorded-exchange.js';

const incoming = (bytes: Buffer, received = bytes.length): Incoming => ({
  status: 200,
  headers: { a: 'b' },
  bytes,
  received,
});

describe('readBody', () => {
  it('names the defect of a JSON answer that does not parse: a byte-order mark, a cut body, bytes not UTF-8', () => {
    const bom = readBody(incoming(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')])));
    expect(bom.json).toBeUndefined();
    expect(bom.jsonError).toMatch(/^the body starts with EF BB BF, a byte-order mark/);
    const cut = readBody(incoming(Buffer.from('{"error":"run_not_found","mess')));
    expect(cut.jsonError).toMatch(/^the body ends before its JSON text does \(cut short after 30 bytes\?\)/);
    const bytes = readBody(incoming(Buffer.from([0x7b, 0xff, 0x7d])));
    expect(bytes.jsonError).toMatch(/^the body holds bytes that are not UTF-8 \(the first at byte offset 1\)/);
  });

  it('parses JSON losslessly and says why a body is not JSON', () => {
    const json = readBody(incoming(Buffer.from('{"id":9007199254740993,"f":1.0}')));
    expect(json.json).toEqual({ id: 9007199254740993n, f: new JsonDecimal('1.0') });
    expect(json.jsonError).toBeUndefined();
    expect(readBody(undefined)).toEqual({ text: '', json: undefined, jsonError: 'no response' });
    expect(readBody(incoming(Buffer.from(' \n')))).toEqual({ text: ' \n', json: undefined, jsonError: 'empty body' });
    // An HTML page is named by where the parser stopped, so the evidence says what came instead of JSON.
    expect(readBody(incoming(Buffer.from('<html>')))).toMatchObject({
      json: undefined,
      jsonError: expect.stringMatching(/'<' at position 0/),
    });
  });

  it('keeps the offset of the first invalid UTF-8 byte, but not for a sequence cut by the size cap', () => {
    expect(readBody(incoming(Buffer.from([0x7b, 0x7d, 0xff]))).invalidUtf8At).toBe(2);
    const cut = Buffer.from('{"a":"é"}').subarray(0, 7);
    expect(readBody(incoming(cut)).invalidUtf8At).toBe(6);
    expect(readBody(incoming(cut, 100)).invalidUtf8At).toBeUndefined();
  });
});

describe('apiResponse', () => {
  const exchange = { label: 'the exchange' } as RecordedExchange;
  const at = { startedAt: new Date(0), durationMs: 0 };

  it('has status 0 exactly when there is a transport error, even with a status received', () => {
    const whole = incoming(Buffer.from('{}'));
    const ok = apiResponse({ incoming: whole, ...at }, readBody(whole), exchange);
    expect([ok.status, ok.transportError, ok.headers]).toEqual([200, undefined, { a: 'b' }]);
    const error = { code: 'connection_reset' as const, message: 'socket hang up' };
    const cut = apiResponse({ incoming: whole, error, ...at }, readBody(whole), exchange);
    expect([cut.status, cut.transportError, cut.text]).toEqual([0, error, '{}']);
    const none = apiResponse({ error, ...at }, readBody(undefined), exchange);
    expect([none.status, none.headers, none.jsonError, none.exchange]).toEqual([0, {}, 'no response', exchange]);
  });
});

describe('a body over LAZY_JSON_ABOVE_CHARS', () => {
  const ITEMS = Math.ceil(LAZY_JSON_ABOVE_CHARS / 3) + 1;
  const big = (inner: string): Buffer =>
    Buffer.from(`{"id":9007199254740993,"candidates":[${Array.from({ length: ITEMS }, () => inner).join(',')}]}`);

  it('is parsed when its JSON is read, losslessly, every item there, repeated small items shared', () => {
    const body = readBody(incoming(big('{"a":1}')));
    expect(Object.getOwnPropertyDescriptor(body, 'json')?.get).toBeTypeOf('function');
    const res = apiResponse({ incoming: incoming(Buffer.alloc(0)), startedAt: new Date(0), durationMs: 0 }, body, {
      label: 'the exchange',
    } as RecordedExchange);
    const json = res.json as { id: bigint; candidates: Array<{ a: number }> };
    expect(json.id).toBe(9007199254740993n);
    expect(json.candidates).toHaveLength(ITEMS);
    expect(json.candidates.every((c) => c.a === 1)).toBe(true);
    expect(json.candidates[0]).toBe(json.candidates[ITEMS - 1]);
    expect(res.jsonError).toBeUndefined();
  });

  it('says why it is not JSON, and is parsed for an org token only when its text may name one', () => {
    const broken = readBody(incoming(Buffer.concat([big('{}'), Buffer.from('x')])));
    expect(broken.jsonError).toBeTypeOf('string');
    expect(mayCarryOrgToken(broken)).toBe(false);
    expect(mayCarryOrgToken(readBody(incoming(big('{"org_token":"t"}'))))).toBe(true);
    expect(mayCarryOrgToken(readBody(incoming(Buffer.from('{}'))))).toBe(true);
  });
});
