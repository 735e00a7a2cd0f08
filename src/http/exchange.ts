// The shape every layer of the client shares. A request goes down a pipeline of layers (URL guard,
// cancellation, pacing, time-out, counting) to the transport; each layer sees the request and the
// attempt's control, may refuse, wait or arm something, and hands on to the next. A layer never
// throws for anything the target does: it returns an `Exchanged` whose `error` says what happened.

import type { Priority } from './pacer.js';
import type { RequestControl } from './request-control.js';
import type { TransportError } from './transport-error.js';

export interface Outgoing {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** As sent; `bodyText` is its UTF-8 reading for the record. */
  body?: string | Uint8Array;
  bodyText?: string;
}

export interface Incoming {
  status: number;
  headers: Record<string, string>;
  bytes: Buffer;
  /** Bytes received, which is more than `bytes` holds when the body was too large. */
  received: number;
}

export interface Exchanged {
  /** What came, even when an error cut it short: a half-read answer is evidence too. */
  incoming?: Incoming;
  error?: TransportError;
  startedAt: Date;
  durationMs: number;
}

/** One request's way through the pipeline. */
export interface Attempt {
  control: RequestControl;
  timeoutMs: number;
  /** Part of a deliberate burst over the rate limit: see Pacer.burst. */
  unpaced?: boolean;
  priority?: Priority;
  /** A spare request is not sent once this aborts without spare budget having come (see Pacer). */
  spareStop?: AbortSignal;
}

export type Send = (req: Outgoing, attempt: Attempt) => Promise<Exchanged>;
export type Layer = (next: Send) => Send;

/** The layers wrap `send`, the first listed outermost. */
export function compose(layers: readonly Layer[], send: Send): Send {
  return layers.reduceRight<Send>((next, layer) => layer(next), send);
}

/** An exchange that ended before the transport was reached, timed from `startedAt`/`t0`. */
export function endedEarly(error: TransportError, startedAt: Date, t0: number): Exchanged {
  return { error, startedAt, durationMs: performance.now() - t0 };
}
