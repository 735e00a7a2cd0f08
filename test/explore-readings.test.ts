// The readings the exploration applies, each against a target that takes the reading the sandbox does
// not (a proxy rewriting the sandbox's answers):
// - a 5xx to a valid request fails when the input is ordinary (the faults explore.job-title-emoji-500
//   and explore.outside-bmp-500 prove it), and is a warning when the spec leaves the input's handling
//   open (control characters in text): "a service-side failure on an input the spec does not address";
// - "nothing stored" is promised for 422 answers: a 400 that stored the write is a warning, not a failure.

import { afterEach, describe, expect, it } from 'vitest';
import { NON_422_STORED_WARNING, OPEN_INPUT_WARNING } from '../suites/explore/properties.js';
import { certifySandbox, resultOf } from './support/certify-sandbox.js';
import { startRewritingProxy, type Rewrite, type Seen } from './support/rewriting-proxy.js';

const ENVELOPE_500 = { status: 500, json: { error: 'internal_error', message: 'internal error' } };
const ENVELOPE_400 = { status: 400, json: { error: 'bad_request', message: 'invalid body' } };

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function certifyBehind(rewrite: (seen: Seen) => Rewrite | undefined, id: string) {
  const proxy = await startRewritingProxy(rewrite);
  close = () => proxy.close();
  const run = await certifySandbox({
    ids: [id],
    // The whole sweep and seeded cases: the cases these readings turn on lie past the default's share.
    flags: { explore: '300' },
    adjust: (config) => {
      proxy.to(config.baseUrl ?? '');
      return { ...config, baseUrl: proxy.baseUrl };
    },
  });
  return resultOf(run, id);
}

/** A JSON string escape of a C0 control character or DEL, as generated bodies carry them. */
const CONTROL = /\\u00[01][0-9a-f]|\x7f/i;

describe('readings of the exploration', () => {
  it('a 500, twice, to control characters in a recruiter field is a warning naming the reading', async () => {
    const result = await certifyBehind(
      (s) =>
        s.method === 'POST' && s.path.endsWith('/users') && CONTROL.test(s.body) ? { answer: ENVELOPE_500 } : undefined,
      'explore.users.valid-input-never-5xx',
    );
    expect(result.status, result.message).toBe('warning');
    expect(result.message).toContain(OPEN_INPUT_WARNING);
    expect(result.message).toContain('control characters in text');
  });

  it('a job refused 400 that was stored anyway is a warning: "nothing stored" is promised for 422', async () => {
    const TEXT = ['title', 'description_text', 'location_text'];
    const result = await certifyBehind((s) => {
      if (s.method !== 'POST' || !s.path.endsWith('/jobs')) return undefined;
      const body = JSON.parse(s.body) as Record<string, unknown>;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
      const loose = TEXT.filter((k) => typeof body[k] === 'number');
      if (loose.length === 0) return undefined;
      for (const k of loose) body[k] = String(body[k]);
      // The job is stored (its numbers read as digits), and the answer says it was refused.
      return { forwardBody: JSON.stringify(body), answer: ENVELOPE_400 };
    }, 'explore.jobs.refused-write-stored-nothing');
    expect(result.status, result.message).toBe('warning');
    expect(result.message).toContain(NON_422_STORED_WARNING);
  });
});
