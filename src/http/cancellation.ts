// Requests that one event ends together: a check's abort ends that check's requests, the engine's
// close ends them all. Members are kept in sets rather than as abort listeners: a check may have a
// hundred requests in flight.

import type { Layer } from './exchange.js';
import type { RequestControl, StopReason } from './request-control.js';

type GroupStop = Exclude<StopReason, 'timeout'>;

export interface StopGroup {
  /** Why the group was stopped; a request joining it then is stopped at once. */
  readonly stopped: GroupStop | undefined;
  stopAll(reason: GroupStop): void;
  add(control: RequestControl): void;
  delete(control: RequestControl): void;
}

const MESSAGES: Record<GroupStop, string> = {
  aborted: 'the check was aborted',
  closed: 'the HTTP engine was closed',
};

export function createStopGroup(): StopGroup {
  const members = new Set<RequestControl>();
  let stopped: GroupStop | undefined;
  return {
    get stopped() {
      return stopped;
    },
    stopAll(reason) {
      stopped ??= reason;
      for (const control of members) control.stop(reason, MESSAGES[reason]);
    },
    add: (control) => members.add(control),
    delete: (control) => members.delete(control),
  };
}

/** The group of one check's requests: stopped when its signal aborts (or already has). */
export function stopGroupOf(signal: AbortSignal | undefined): StopGroup {
  const group = createStopGroup();
  if (signal?.aborted) group.stopAll('aborted');
  else signal?.addEventListener('abort', () => group.stopAll('aborted'), { once: true });
  return group;
}

/** Each request belongs to every group for as long as it runs; groups listed first win a tie. */
export function cancellable(groups: readonly StopGroup[]): Layer {
  return (next) => async (req, attempt) => {
    const { control } = attempt;
    for (const group of groups) {
      if (group.stopped) control.stop(group.stopped, MESSAGES[group.stopped]);
      group.add(control);
    }
    try {
      return await next(req, attempt);
    } finally {
      for (const group of groups) group.delete(control);
    }
  };
}
