import { describe, expect, it } from 'vitest';
import { createRedactor } from '../config/redact.js';
import { parseJsonLossless } from '../json/lossless.js';
import type { RecordedExchange } from './recorded-exchange.js';
import { createClientRedaction, MAX_LEARNED_TOKENS } from './redaction.js';

const KEY = 'spk_live_' + '0123456789abcdef'.repeat(3);
const TOKEN = 'tok-not-in-the-spec-format-0123456789';

function recordWith(text: string): RecordedExchange {
  return {
    startedAt: new Date(0).toISOString(),
    durationMs: 0,
    request: { method: 'GET', url: `http://h/v1/x?t=${text}`, headers: {} },
    response: { status: 200, headers: {}, body: `{"echo":"${text}"}` },
    curl: `curl 'http://h/v1/x?t=${text}'`,
  };
}

describe('client redaction', () => {
  it('makes the partner key a secret at once, and an org token when it is sent or arrives', () => {
    const redactor = createRedactor([]);
    const redaction = createClientRedaction(redactor, KEY);
    expect(redactor.secrets().map((s) => s.envVar)).toEqual(['SVC_PARTNER_KEY']);
    expect(redaction.orgToken(undefined)).toBeUndefined();
    expect(redaction.orgToken('sot_' + 'a'.repeat(40))).toBe('sot_' + 'a'.repeat(40));
    redaction.answer(parseJsonLossless(`{"data":{"org_token":"${TOKEN}"}}`));
    expect(redactor.secrets().map((s) => s.envVar)).toEqual(['SVC_PARTNER_KEY', 'SVC_ORG_TOKEN', 'SVC_ORG_TOKEN_2']);
    expect(redactor.text(`x ${TOKEN} y`)).not.toContain(TOKEN);
  });

  it('redacts again a record made before its secret was known, until closed', () => {
    const redactor = createRedactor([]);
    const redaction = createClientRedaction(redactor, KEY);
    const early = recordWith(TOKEN);
    redaction.track(early);
    redaction.answer(parseJsonLossless(`{"org_token":"${TOKEN}"}`));
    expect(JSON.stringify(early)).not.toContain(TOKEN);
    expect(early.response?.body).toBe('{"echo":"tok-not-in-t…"}');

    const later = recordWith('late-secret-value-0123456789');
    redaction.track(later);
    redaction.close();
    redactor.add({ value: 'late-secret-value-0123456789', envVar: 'SVC_WEBHOOK_SECRET' });
    expect(later.response?.body).toContain('late-secret-value-0123456789');
  });

  it('redacts the records again once per answer, and learns at most MAX_LEARNED_TOKENS tokens', () => {
    const redactor = createRedactor([]);
    const redaction = createClientRedaction(redactor, KEY);
    const early = recordWith('x');
    redaction.track(early);
    let urls = 0;
    Object.defineProperty(early.request, 'url', {
      get: () => 'http://h/v1/x',
      set: () => void urls++,
    });
    const answer = (from: number) =>
      parseJsonLossless(
        JSON.stringify({
          items: Array.from({ length: 16 }, (_, i) => ({ org_token: `sot_${from + i}`.padEnd(52, 'f') })),
        }),
      );
    redaction.answer(answer(0));
    expect(urls).toBe(1);
    for (let n = 16; n < MAX_LEARNED_TOKENS + 64; n += 16) redaction.answer(answer(n));
    expect(redactor.secrets()).toHaveLength(1 + MAX_LEARNED_TOKENS);
    expect(redaction.ignoredTokens()).toBe(64);
    expect(redaction.ignoredNotice()?.message).toMatch(
      /carried 64 org_token value\(s\) not redacted .*64 past the 256 taken in one run/,
    );
  });

  it('names the tokens past the bounds of one answer (too long, too many) with their counts, and nothing when none', () => {
    const redaction = createClientRedaction(createRedactor([]), KEY);
    expect(redaction.ignoredNotice()).toBeUndefined();
    redaction.answer(
      parseJsonLossless(
        JSON.stringify({
          org_token: 'a'.repeat(10_000),
          items: Array.from({ length: 20 }, (_, i) => ({ org_token: `sot_${i}`.padEnd(52, 'e') })),
        }),
      ),
    );
    expect(redaction.ignoredNotice()).toEqual({
      id: 'redaction.org-tokens-past-bounds',
      message: expect.stringMatching(
        /carried 5 org_token value\(s\) not redacted as secrets: 1 longer than the 1,024 characters taken as a secret \(the longest 10,000\); 4 past the 16 taken from one answer/,
      ),
    });
  });
});
