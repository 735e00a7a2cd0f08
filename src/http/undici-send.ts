// The transport under every layer: one request through an undici Agent, its body read under the size
// cap. undici 7 follows no redirect unless a redirect interceptor is composed in: a 3xx is returned
// as is.

import type { Agent, Dispatcher } from 'undici';
import { createBodySink } from './body-cap.js';
import type { Incoming, Send } from './exchange.js';

function lowerCaseHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export function undiciSend(agent: Agent, maxBodyBytes: number): Send {
  return async (req, { control, timeoutMs }) => {
    const url = new URL(req.url);
    const startedAt = new Date();
    const t0 = performance.now();
    const timed = () => ({ startedAt, durationMs: performance.now() - t0 });
    // Outside the try: what came before a failure is evidence too.
    const sink = createBodySink(maxBodyBytes);
    let incoming: Incoming | undefined;
    try {
      const res = await agent.request({
        origin: url.origin,
        path: url.pathname + url.search,
        method: req.method as Dispatcher.HttpMethod,
        headers: req.headers,
        body: req.body ?? null,
        signal: control.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      incoming = {
        status: res.statusCode,
        headers: lowerCaseHeaders(res.headers),
        bytes: Buffer.alloc(0),
        received: 0,
      };
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        if (!sink.push(chunk)) break; // leaving the loop destroys the body and its socket
      }
      const body = sink.finish();
      incoming.bytes = body.bytes;
      incoming.received = body.received;
      if (!body.overLimit) return { incoming, ...timed() };
      // A transport finding, judged as such: its first bytes are the evidence.
      const error = {
        code: 'body_too_large' as const,
        message: `response body exceeds ${maxBodyBytes} bytes; reading stopped`,
      };
      return { incoming, error, ...timed() };
    } catch (err) {
      if (incoming) ({ bytes: incoming.bytes, received: incoming.received } = sink.finish());
      return { incoming, error: control.errorOf(err), ...timed() };
    }
  };
}
