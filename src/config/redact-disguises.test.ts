import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor, type NamedSecret } from './redact.js';
import { DISGUISES, disguisedLeaks } from '../../test/support/secret-disguises.js';

const NAMES = Object.keys(DISGUISES);
const hex48 = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 48, maxLength: 48 });
const webhookSecret = fc.string({
  unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_'),
  minLength: 24,
  maxLength: 40,
});

/** What a report says around an echoed secret: words, numbers, punctuation of JSON and prose, no backslash. */
const WORDS = [
  'the',
  'target',
  'answered',
  '404',
  'not_found',
  '{"error":',
  '"message":',
  'key',
  'is not known',
  'runs-start.too-many-musts',
  '(Runs 3)',
  'é',
  'Ünïcode',
  'مرحبا',
  '→',
  'x-partner-key:',
  '2026-11-28T08:00:00Z',
  '0x1f',
  'cand_0012ab',
];
const prose = fc
  .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(' ', '\n', ', ', ': ', '"', '=')), { maxLength: 8 })
  .map((parts) => parts.map(([w, sep]) => w + sep).join(''));

/** Upper case loses what base64 says (its letters' case): no disguise, nothing left to redact. */
function lossy(first: string, second: string): boolean {
  return second === 'upper case' && first.startsWith('base64');
}

function disguised(secret: string, first: string, second: string): string {
  const once = first === 'as is' ? secret : (DISGUISES[first]?.(secret) ?? secret);
  return second === 'as is' ? once : (DISGUISES[second]?.(once) ?? once);
}

function redactorOf(secrets: string[]): ReturnType<typeof createRedactor> {
  const named: NamedSecret[] = secrets.map((value, i) => ({ value, envVar: `SVC_SECRET_${i}` }));
  return createRedactor(named);
}

describe('secrets under every disguise and every two of them', () => {
  const key = `spk_live_${'5a4b3c2d1e0f9a8b'.repeat(3)}`;
  const token = `sot_${'c0ffee11d00d2244'.repeat(3)}`;
  const webhook = 'whsec_Kq9vR2mT7xLp4NzB8cYd';
  const r = redactorOf([key, token, webhook]);
  const pairs = ['as is', ...NAMES]
    .flatMap((a) => ['as is', ...NAMES].map((b) => [a, b] as const))
    .filter(([a, b]) => !lossy(a, b));

  it.each(pairs)('%s, then %s', (first, second) => {
    for (const secret of [key, token, webhook]) {
      const input = `echo: ${disguised(secret, first, second)} (end)`;
      // The oracle sees the secret in what went in: the disguise is one it reads through.
      expect(disguisedLeaks(input, secret).length, input).toBeGreaterThan(0);
      const out = r.text(input);
      expect(disguisedLeaks(out, secret), `${input} → ${out}`).toEqual([]);
      expect(out.startsWith('echo: ') && out.endsWith(' (end)'), out).toBe(true);
    }
  });

  it('drawn secrets, two disguises and surrounding text: no reading of the output holds the secret', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          hex48.map((h) => `spk_live_${h}`),
          hex48.map((h) => `sot_${h}`),
          webhookSecret,
        ),
        fc.constantFrom('as is', ...NAMES),
        fc.constantFrom('as is', ...NAMES),
        prose,
        prose,
        fc.boolean(),
        (secret, first, second, before, after, known) => {
          fc.pre(!lossy(first, second));
          const input = `${before}${disguised(secret, first, second)} ${after}`;
          // Keys and tokens are found by their format even when no one named them.
          const unknownAllowed = /^(spk_live_|sot_)/.test(secret);
          const redactor = redactorOf(known || !unknownAllowed ? [secret] : []);
          expect(disguisedLeaks(input, secret).length).toBeGreaterThan(0);
          const out = redactor.text(input);
          expect(disguisedLeaks(out, secret), `${input} → ${out}`).toEqual([]);
        },
      ),
      { numRuns: 300, seed: 40 },
    );
  });

  it('leaves report text without a secret as it was', () => {
    fc.assert(
      fc.property(prose, (text) => {
        expect(r.text(text)).toBe(text);
      }),
      { numRuns: 300, seed: 41 },
    );
  });
});
