// A URL that does not parse is the request's fault, found before it costs budget or a count.

import type { Layer } from './exchange.js';

export const requireValidUrl: Layer = (next) => async (req, attempt) => {
  try {
    new URL(req.url);
  } catch (err) {
    return {
      error: { code: 'invalid_request', message: `invalid URL: ${(err as Error).message}` },
      startedAt: new Date(),
      durationMs: 0,
    };
  }
  return next(req, attempt);
};
