import { describe, expect, it } from 'vitest';
import { JsonDecimal } from '../json/lossless.js';
import { apiResponse, readBody } from './answer.js';
import type { Incoming } from './exchange.js';
import type { RecordedExchange } from './recorded-exchange.js';

const incoming = (bytes: Buffer, received = bytes.length): Incoming => ({
  status: 200,
  headers: { a: 'b' },
  bytes,
  received,
});

describe('readBody', () => {
  it('parses JSON losslessly and says why a body is not JSON', () => {
    const json = readBody(incoming(Buffer.from('{"id":9007199254740993,"f":1.0}')));
    expect(json.json).toEqual({ id: 9007199254740993n, f: new JsonDecimal('1.0') });
    expect(json.jsonError).toBeUndefined();
    expect(readBody(undefined)).toEqual({ text: '', json: undefined, jsonError: 'no response' });
    expect(readBody(incoming(Buffer.from(' \n')))).toEqual({ text: ' \n', json: undefined, jsonError: 'empty body' });
    expect(readBody(incoming(Buffer.from('<html>'))).jsonError).toBeTypeOf('string');
  });

  it('keeps the offset of the first invalid UTF-8 byte, but not for a sequence cut by the size cap', () => {
    expect(readBody(incoming(Buffer.from([0x7b, 0x7d, 0xff]))).invalidUtf8At).toBe(2);
    const cut = Buffer.from('{"a":"é"}').subarray(0, 7);
    expect(readBody(incoming(cut)).invalidUtf8At).toBe(6);
    expect(readBody(incoming(cut, 100)).invalidUtf8At).toBeUndefined();
  });
});

describe('apiResponse', () => {
  const exchange = { index: 0 } as RecordedExchange;
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
