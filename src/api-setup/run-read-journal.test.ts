// The journal of run reads: reads of a watched run by any client land in one list, in the order the
// answers came, each with when it was sent and answered; other requests pass untouched.

import { describe, expect, it } from 'vitest';
import type { ApiClient, ApiResponse, RequestSpec } from '../http/types.js';
import type { ClientFactory } from '../runner/client-factory.js';
import { journalRunReads, RunReadJournal } from './run-read-journal.js';

/** A factory whose answers wait until the test releases them, so the order of answers is the test's. */
function heldEngine(): ClientFactory & { release(path: string, screened: number): void; pending(): string[] } {
  const waiting = new Map<string, Array<(res: ApiResponse) => void>>();
  const answerFor = (path: string, screened: number): ApiResponse =>
    ({
      status: 200,
      headers: {},
      text: '',
      json: { progress: { screened } },
      exchange: { index: 0, startedAt: '', durationMs: 0, request: { method: 'GET', url: path, headers: {} } },
    }) as unknown as ApiResponse;
  const hold = (spec: RequestSpec): Promise<ApiResponse> =>
    new Promise((resolve) => waiting.set(spec.path, [...(waiting.get(spec.path) ?? []), resolve]));
  return {
    client(): ApiClient {
      return {
        request: hold,
        get: (path) => hold({ method: 'GET', path }),
        post: (path) => hold({ method: 'POST', path }),
      };
    },
    release(path, screened) {
      const list = waiting.get(path) ?? [];
      const next = list.shift();
      if (!next) throw new Error(`nothing waits on ${path}`);
      next(answerFor(path, screened));
    },
    pending: () => [...waiting.entries()].filter(([, l]) => l.length > 0).map(([p]) => p),
  };
}

const screenedOf = (res: ApiResponse): unknown => (res.json as { progress: { screened: number } }).progress.screened;

describe('RunReadJournal', () => {
  it('keeps the reads of a watched run by every client, in the order answered, with send and answer positions', async () => {
    const engine = heldEngine();
    const journal = new RunReadJournal();
    const journaled = journalRunReads(engine, journal);
    journal.watch('run-1');
    const a = journaled.client(() => undefined);
    const b = journaled.client(() => undefined);
    // Two reads in flight together (one per client); the second is answered first.
    const first = a.get('/runs/run-1');
    const second = b.request({ method: 'GET', path: '/runs/run-1' });
    await Promise.resolve();
    engine.release('/runs/run-1', 10);
    engine.release('/runs/run-1', 12);
    await Promise.all([first, second]);
    // A third read, sent after both were answered.
    const third = b.get('/runs/run-1');
    await Promise.resolve();
    engine.release('/runs/run-1', 11);
    await third;

    const reads = journal.reads('run-1');
    expect(reads.map((r) => screenedOf(r.res))).toEqual([10, 12, 11]);
    // The two reads in flight together overlap (neither answered before the other was sent) …
    expect(reads[0]!.answered > reads[1]!.sent).toBe(true);
    expect(reads[1]!.answered > reads[0]!.sent).toBe(true);
    // … and the third was sent after both were answered.
    expect(reads[2]!.sent > reads[0]!.answered && reads[2]!.sent > reads[1]!.answered).toBe(true);
  });

  it('keeps nothing of runs not watched, of other paths or of other methods', async () => {
    const engine = heldEngine();
    const journal = new RunReadJournal();
    const api = journalRunReads(engine, journal).client(() => undefined);
    journal.watch('run-1');
    const calls = [
      api.get('/runs/run-2'),
      api.post('/runs/run-1', {}),
      api.get('/runs/run-1/candidates/5/reveal'),
      api.request({ method: 'POST', path: '/runs/run-1' }),
    ];
    await Promise.resolve();
    for (const path of engine.pending()) {
      engine.release(path, 1);
      if (path === '/runs/run-1') engine.release(path, 1);
    }
    await Promise.all(calls);
    expect(journal.reads('run-1')).toEqual([]);
    expect(journal.reads('run-2')).toEqual([]);
  });

  it('decodes the run id of the path as the run is watched', async () => {
    const engine = heldEngine();
    const journal = new RunReadJournal();
    const api = journalRunReads(engine, journal).client(() => undefined);
    journal.watch('a b');
    const read = api.get('/runs/a%20b');
    await Promise.resolve();
    engine.release('/runs/a%20b', 3);
    await read;
    expect(journal.reads('a b').map((r) => screenedOf(r.res))).toEqual([3]);
  });
});
