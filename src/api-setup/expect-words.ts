// How every assertion of t.expect words its observations: the request as a person reads it, the answer
// it got, and the one way a failure is recorded (its section appended to the message).

import type { ApiResponse } from '../http/types.js';
import type { Assertions } from '../runner/assertions.js';
import type { WrittenObservation } from './check.js';

export interface ExpectWords {
  /** "GET /jobs/7" (relative to the base URL). */
  req(res: ApiResponse): string;
  /** "GET /jobs/7 answered 404 with error "not_found"", or that it got no HTTP answer and why. */
  answered(res: ApiResponse): string;
  /** Records a failure; the message gets its section appended (`note` goes before it: "(note; section)"). */
  record(obs: WrittenObservation, res?: ApiResponse, note?: string): false;
  warn: Assertions<WrittenObservation, ApiResponse>['warn'];
}
