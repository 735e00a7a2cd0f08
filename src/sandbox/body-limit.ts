// A request body read without ever holding more of it than the limit: past the limit the bytes only
// prove the body too large, so they are counted and discarded, never kept.
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface BoundedBody {
  /** Takes the next chunk; true once the body is known to be over the limit. */
  add(chunk: Buffer): boolean;
  /** The bytes kept (at most `limit + 1`, enough for the app to see the excess), or undefined for no body. */
  bytes(): Buffer | undefined;
}

export function boundedBody(limit: number): BoundedBody {
  const chunks: Buffer[] = [];
  let kept = 0;
  let received = 0;
  return {
    add(chunk) {
      received += chunk.length;
      const room = limit + 1 - kept;
      if (room > 0) {
        const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
        chunks.push(part);
        kept += part.length;
      }
      return received > limit;
    },
    bytes: () => (received > 0 ? Buffer.concat(chunks, kept) : undefined),
  };
}

export interface DrainAllowance {
  /** Bytes still read (and discarded) after the answer before the connection is closed. */
  maxBytes: number;
  /** Time after the answer within which the body must end, else the connection is closed. */
  maxMs: number;
}

/**
 * After an answer given before the body ended: a client still writing reads the answer only if its
 * upload is not cut off (closing with unread input makes the kernel send a reset, which can destroy
 * the answer in flight), so the rest is read and dropped; one that finishes in time keeps a usable
 * connection, one that goes on past the allowance has it closed.
 */
export function drainRest(req: IncomingMessage, res: ServerResponse, allowance: DrainAllowance): void {
  if (req.complete) return;
  let seen = 0;
  const stop = (): void => {
    clearTimeout(timer);
    req.off('data', count);
  };
  const close = (): void => {
    stop();
    // An answer still waiting to be written (added latency) goes out before the connection ends.
    if (res.writableFinished || res.destroyed) req.socket.destroy();
    else res.once('close', () => req.socket.destroy());
  };
  const count = (chunk: Buffer): void => {
    seen += chunk.length;
    if (seen > allowance.maxBytes) close();
  };
  const timer = setTimeout(close, allowance.maxMs);
  timer.unref();
  req.on('data', count);
  req.once('end', stop);
  req.once('close', stop);
}
