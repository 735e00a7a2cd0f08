// Every read of a watched run, whichever client made it (a shared setup step's or any check's), so the
// properties that hold from one read of a run to the next are judged over all of them, not only the
// reads one check happened to make. Each read carries when it was sent and when its answer came, as
// positions in one sequence of events (no clock): two reads in flight together may have been served in
// either order, so only a read answered before another was sent is known to come first.

import { matchEndpoint } from '../api/endpoints.js';
import type { ApiClient, ApiResponse, RequestSpec } from '../http/types.js';
import type { ClientFactory } from '../runner/client-factory.js';

export interface JournaledRead {
  res: ApiResponse;
  /** Position of the request's sending in the journal's sequence of events. */
  sent: number;
  /** Position of the answer's arrival; always after `sent`. */
  answered: number;
}

export class RunReadJournal {
  private seq = 0;
  private readonly watched = new Map<string, JournaledRead[]>();

  /** From now on every read of this run is kept (only watched runs: their answers stay in memory). */
  watch(runId: string): void {
    if (!this.watched.has(runId)) this.watched.set(runId, []);
  }

  /** The reads of a watched run answered so far, in the order their answers came. */
  reads(runId: string): JournaledRead[] {
    return [...(this.watched.get(runId) ?? [])];
  }

  /** Wraps one request: a GET of a watched run is kept with its two positions. */
  async around(spec: Pick<RequestSpec, 'method' | 'path'>, send: () => Promise<ApiResponse>): Promise<ApiResponse> {
    const m = matchEndpoint(spec.method.toUpperCase(), spec.path);
    const list = m?.name === 'runs-read' ? this.watched.get(m.params.run_id) : undefined;
    if (!list) return send();
    const sent = ++this.seq;
    const res = await send();
    list.push({ res, sent, answered: ++this.seq });
    return res;
  }
}

/** The engine whose every client's reads of a watched run go into `journal`. */
export function journalRunReads(engine: ClientFactory, journal: RunReadJournal): ClientFactory {
  return {
    client(record, opts) {
      const api: ApiClient = engine.client(record, opts);
      return {
        request: (spec) => journal.around(spec, () => api.request(spec)),
        get: (path, o) => journal.around({ method: 'GET', path }, () => api.get(path, o)),
        post: (path, body, o) => api.post(path, body, o),
      };
    },
  };
}
