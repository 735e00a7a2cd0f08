// Conventions every answer keeps (Conventions: the error envelope, the language of messages, the content
// type, the JSON text). Most act at the envelope and wire points of app.ts; one is switched in context.ts.
import type { FaultDefinition } from './types.js';
import { reword } from './reshape.js';
import { onAnswer, onRefusal } from './points.js';

/** RFC 8259 §8.1: implementations must not add a byte-order mark; the fault puts one before every JSON text. */
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** The same instant with a +03:00 offset: a valid ISO 8601 timestamp that is not UTC. */
function plus3(iso: string): string {
  return new Date(Date.parse(iso) + 3 * 3_600_000).toISOString().replace('Z', '+03:00');
}

export const conventionsFaults = [
  {
    id: 'conventions.content-type-without-charset',
    area: 'conventions',
    summary: 'JSON responses say `application/json` without `charset=utf-8`',
    caughtBy: 'conventions.success-json-utf8',
    acts: {
      wire: (w) => ({ ...w, headers: { ...w.headers, 'content-type': 'application/json' } }),
    },
  },
  {
    id: 'conventions.json-byte-order-mark',
    area: 'conventions',
    summary: 'every JSON answer starts with a UTF-8 byte-order mark (EF BB BF), which RFC 8259 forbids in JSON text',
    caughtBy: 'conventions.error-envelope-json-utf8',
    acts: {
      wire: (w) => ({ ...w, body: Buffer.concat([UTF8_BOM, w.body]) }),
    },
  },
  {
    id: 'conventions.timestamp-not-utc',
    area: 'conventions',
    summary: '`redeemed_at` is written with a +03:00 offset instead of UTC',
    caughtBy: 'activation.already-redeemed-409',
    acts: {
      refusal: onRefusal('code-already-redeemed', (e) =>
        e && typeof e.extra?.redeemed_at === 'string'
          ? reword(e, { extra: { ...e.extra, redeemed_at: plus3(e.extra.redeemed_at) } })
          : e,
      ),
    },
  },
  {
    id: 'conventions.malformed-json-500',
    area: 'conventions',
    summary: 'a malformed JSON body answers 500 instead of a 4xx',
    caughtBy: 'conventions.malformed-json-answered-4xx',
  },
  {
    id: 'conventions.message-not-localized',
    area: 'conventions',
    summary: 'error `message` is always English, ignoring x-svc-lang and the Hebrew default',
    caughtBy: 'conventions.message-hebrew-for-lang-he',
    acts: {
      envelope: (env, f) => ({ ...env, message: f.messageIn('en') }),
    },
  },
  {
    id: 'conventions.invalid-utf8-in-run-read',
    area: 'conventions',
    summary:
      'a run read carries a stray 0xFF byte inside the first candidate name (invalid UTF-8, still parseable once decoded)',
    caughtBy: 'conventions.response-bodies-utf8',
    acts: {
      wire: (w) => {
        const at = w.body.indexOf('"name":"');
        if (at < 0) return w;
        return {
          ...w,
          body: Buffer.concat([w.body.subarray(0, at + 8), Buffer.from([0xff]), w.body.subarray(at + 8)]),
        };
      },
    },
  },
  {
    id: 'conventions.decisions-success-without-charset',
    area: 'conventions',
    summary: 'the success of POST /runs/{run_id}/decisions alone says `application/json` without `charset=utf-8`',
    caughtBy: 'conventions.success-json-utf8',
    acts: {
      answer: onAnswer('decisions', (r) => ({ ...r, headers: { ...r.headers, 'content-type': 'application/json' } })),
    },
  },
  {
    id: 'conventions.error-without-charset',
    area: 'conventions',
    summary: 'error responses (4xx/5xx) say `application/json` without `charset=utf-8`; successes keep it',
    caughtBy: 'conventions.error-envelope-json-utf8',
    acts: {
      wire: (w) => (w.status >= 400 ? { ...w, headers: { ...w.headers, 'content-type': 'application/json' } } : w),
    },
  },
  {
    id: 'conventions.message-language-swapped',
    area: 'conventions',
    summary: "error `message` comes in the other language than the request's: English for he, Hebrew for en",
    caughtBy: 'conventions.message-english-for-lang-en',
    alsoCaughtBy: ['conventions.message-hebrew-for-lang-he'],
    acts: {
      envelope: (env, f) => ({ ...env, message: f.messageIn(f.lang === 'he' ? 'en' : 'he') }),
    },
  },
  {
    id: 'conventions.default-message-empty',
    area: 'conventions',
    summary:
      'without x-svc-lang, error messages are empty strings instead of a sentence in the partner default language',
    caughtBy: 'conventions.message-hebrew-by-default',
    acts: {
      envelope: (env, f) => (f.langDefaulted ? { ...env, message: '' } : env),
    },
  },
  {
    id: 'conventions.unrouted-without-envelope',
    area: 'conventions',
    summary:
      'an unknown path or a wrong method answers its 404/405 with `{"detail": "Not Found"}` instead of the error envelope',
    caughtBy: 'conventions.unrouted-error-envelope',
    acts: {
      envelope: (env) =>
        env.error === 'not_found' || env.error === 'method_not_allowed' ? { detail: 'Not Found' } : env,
    },
  },
] as const satisfies readonly FaultDefinition[];
