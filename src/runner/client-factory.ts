// What makes the recorded API clients of one certification: each check's and each shared setup
// step's own, all sharing one HTTP engine (pacing, redaction) and one answer gate (answer-gate.ts).

import type { ApiClient } from '../http/types.js';
import type { RecordedExchange } from './results.js';

export interface ClientFactory {
  client(
    record: (exchange: RecordedExchange) => void,
    opts?: { signal?: AbortSignal; labelPrefix?: string },
  ): ApiClient;
}
