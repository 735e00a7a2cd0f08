// Once a target has answered a large body, at most MAX_LARGE_ANSWERS_IN_FLIGHT requests are in
// flight at once. 64 checks receiving 6 MB answers together made one turn of the event loop handle
// dozens of them (SIGTERM waited 9 s to be seen, and every answer was alive at once); a large
// answer's JSON is now parsed only when a check reads it (src/http/answer.ts). A normal target never
// opens the gate's limit.

import type { ApiClient, ApiResponse } from '../http/types.js';
import { MAX_LARGE_ANSWERS_IN_FLIGHT } from './limits.js';
import type { ClientFactory } from './client-factory.js';
import { releaseMemory } from '../http/memory-valve.js';

class AnswerGate {
  private large = false;
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];

  async pass(send: () => Promise<ApiResponse>): Promise<ApiResponse> {
    if (this.large && this.inFlight >= MAX_LARGE_ANSWERS_IN_FLIGHT)
      await new Promise<void>((go) => this.waiting.push(go));
    else this.inFlight++;
    try {
      const res = await send();
      if (res.large) {
        this.large = true;
        // One turn of the event loop between a large parse and its judging: a signal is seen.
        await new Promise((r) => setImmediate(r));
      }
      return res;
    } finally {
      if (this.large) releaseMemory();
      const next = this.large && this.inFlight <= MAX_LARGE_ANSWERS_IN_FLIGHT ? this.waiting.shift() : undefined;
      // The slot passes to the next waiter as it is; otherwise it is freed.
      if (next) next();
      else this.inFlight--;
    }
  }
}

/** The engine whose every client (checks' and shared setup's alike) passes one gate. */
export function gateLargeAnswers(engine: ClientFactory): ClientFactory {
  const gate = new AnswerGate();
  return {
    client(record, opts) {
      const api: ApiClient = engine.client(record, opts);
      return {
        request: (spec) => gate.pass(() => api.request(spec)),
        get: (path, o) => gate.pass(() => api.get(path, o)),
        post: (path, body, o) => gate.pass(() => api.post(path, body, o)),
      };
    },
  };
}
