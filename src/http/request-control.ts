// How any layer ends a request in flight, and what the ending means. The first reason given wins:
// a time-out that fires after the check was aborted does not turn the abort into a time-out.

import { toTransportError } from './transport-error.js';
import type { TransportError } from './transport-error.js';

export type StopReason = 'timeout' | 'aborted' | 'closed';

export interface RequestControl {
  /** Given to the pacer and to undici: aborting it ends the wait or the request. */
  readonly signal: AbortSignal;
  stop(reason: StopReason, message: string): void;
  /** A failure as evidence: the reason the request was stopped for, else what undici or the socket threw. */
  errorOf(err: unknown): TransportError;
}

export function createRequestControl(): RequestControl {
  const controller = new AbortController();
  let why: StopReason | undefined;
  return {
    signal: controller.signal,
    stop(reason, message) {
      why ??= reason;
      controller.abort(new Error(message));
    },
    errorOf(err) {
      return why ? { code: why, message: (controller.signal.reason as Error).message } : toTransportError(err);
    },
  };
}
