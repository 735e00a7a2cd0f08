// One deadline for the whole exchange, headers and body: undici's own time-outs restart with every
// chunk, so a target trickling bytes would never time out. Placed inside pacing: waiting for the
// budget is not the target's fault.

import type { Layer } from './exchange.js';

export const timeOut: Layer = (next) => async (req, attempt) => {
  const { control, timeoutMs } = attempt;
  const timer = setTimeout(() => control.stop('timeout', `no complete response within ${timeoutMs} ms`), timeoutMs);
  try {
    return await next(req, attempt);
  } finally {
    clearTimeout(timer);
  }
};
