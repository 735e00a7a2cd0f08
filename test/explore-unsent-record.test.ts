// The record of an exploration check lists what reached the target, once. A generated request that
// found no spare budget before the other checks ended was never sent (the exploration sends the same
// case again in its grace); listed, the same case appeared twice in the runs where the others happened
// to end while it waited and once in the rest, so two runs of the same build recorded different
// explorations. The spare budget's stop is aborted before the request here: no timing decides it.

import { afterEach, describe, expect, it } from 'vitest';
import { createRedactor } from '../src/config/redact.js';
import { createHttpEngine } from '../src/http/client.js';
import { explorationRequests } from '../src/api-setup/exploration.js';
import type { CheckDefinition } from '../src/api-setup/check.js';
import { runApiCheck } from '../src/api-setup/run-api-check.js';
import type { SharedSetup } from '../src/api-setup/setup-view.js';
import { S } from '../src/spec/sections.js';
import { refusingEverything, type LoopbackServer } from './support/loopback-server.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('an exploration check whose request found no spare budget', () => {
  it('records only the request that reached the target, and counts it once, in the check and the statistics', async () => {
    let received = 0;
    server = await refusingEverything(() => received++);
    const othersEnded = new AbortController();
    othersEnded.abort(Date.now());
    const check: CheckDefinition = {
      id: 'explore.example.schema-mismatch-answered-4xx',
      title: 'example',
      suite: 'explore',
      spec: [S.errors],
      evidence: 'provoked',
      run: async (t) => {
        const label = 'case 1: /name = 12345 (sweep:wrong-type)';
        const spare = await t.api.post(
          '/users',
          { name: 12345 },
          { label, priority: 'spare', spareStop: othersEnded.signal },
        );
        expect(spare.transportError?.code).toBe('no_spare_budget');
        const sent = await t.api.post('/users', { name: 12345 }, { label });
        t.expect.that(sent.status === 422, { message: 'refused', spec: S.errors });
      },
    };
    const engine = createHttpEngine({
      baseUrl: server.baseUrl,
      partnerKey: 'spk_test_unsent',
      orgToken: () => undefined,
      redactor: createRedactor([]),
      ratePerMinute: 120,
      timeScale: 1,
    });
    const result = await runApiCheck(check, {
      target: { baseUrl: server.baseUrl, environment: 'sandbox', timeScale: 1, embedded: false },
      inputs: { partnerKey: 'spk_test_unsent', maxSpendCredits: 0 },
      engine,
      // The check awaits no shared step.
      setup: { forCheck: () => ({}) as SharedSetup },
      onlyWatching: () => undefined,
      reservedCodes: [],
      validate: () => [],
      marginMs: 0,
      onProgress: () => undefined,
      signal: new AbortController().signal,
    });
    expect(received).toBe(1);
    expect(result.exchanges.map((e) => [e.label, e.response?.status])).toEqual([
      ['case 1: /name = 12345 (sweep:wrong-type)', 422],
    ]);
    expect(explorationRequests([result])).toBe(1);
    // The statistics count answers: the request that never went out has none.
    expect(engine.stats().byStatus).toEqual({ '422': 1 });
  });
});
