import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { serializeBody } from './json-body.js';
import { signBody } from './signing.js';
import { vendorFile } from '../../../test/support/vendor-file.js';

const { cases } = JSON.parse(readFileSync(vendorFile('vectors/hmac-sha256.json'), 'utf8')) as {
  cases: Array<{ name: string; key_hex: string; data_hex: string; hmac_sha256_hex: string }>;
};

describe('signBody', () => {
  it.each(cases)('$name', (c) => {
    expect(signBody(Buffer.from(c.key_hex, 'hex'), Buffer.from(c.data_hex, 'hex'))).toBe(`sha256=${c.hmac_sha256_hex}`);
  });

  it('keys with a string secret as UTF-8 and writes lowercase hex', () => {
    // RFC 4231 case 2 has the ASCII key "Jefe".
    const c = cases.find((x) => x.key_hex === '4a656665')!;
    expect(signBody('Jefe', Buffer.from(c.data_hex, 'hex'))).toBe(`sha256=${c.hmac_sha256_hex}`);
    expect(signBody('k', Buffer.from('x'))).toMatch(/^sha256=[0-9a-f]{64}$/);
  });
});

describe('serializeBody', () => {
  it('writes an int64 above 2^53 exactly', () => {
    const text = Buffer.from(serializeBody({ candidate_id: 9007199254740993n, n: 1 })).toString('utf8');
    expect(text).toBe('{"candidate_id":9007199254740993,"n":1}');
  });
});
