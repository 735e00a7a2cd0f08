import { request as httpRequest, type ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface PostResult {
  /** HTTP status, or null when no answer came (refused, reset, timed out). */
  status: number | null;
  error?: string;
  /** The Location header of a 3xx answer (never followed here). */
  location?: string;
}

export interface PostHandle {
  result: Promise<PostResult>;
  abort(): void;
}

/**
 * One POST, no redirect following (node:http never follows). The answer's status line and headers are the
 * acknowledgement: if they do not arrive within `timeoutMs` the attempt fails. The response body is drained
 * and ignored.
 */
export function postOnce(
  url: string,
  headers: Record<string, string>,
  body: Uint8Array,
  opts: { timeoutMs: number; insecureTls: boolean },
): PostHandle {
  let req: ClientRequest | undefined;
  let timer: NodeJS.Timeout | undefined;
  const result = new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (r: PostResult) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      resolve(r);
    };
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    try {
      req = send(
        target,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(body.byteLength) },
          // Self-signed receivers are only trusted on loopback under the operator's local-testing switch.
          ...(target.protocol === 'https:' ? { rejectUnauthorized: !opts.insecureTls } : {}),
          agent: false,
        },
        (res) => {
          res.resume();
          const location = res.headers.location;
          finish({ status: res.statusCode ?? null, ...(location ? { location } : {}) });
        },
      );
    } catch (err) {
      finish({ status: null, error: (err as Error).message });
      return;
    }
    req.on('error', (err) => finish({ status: null, error: err.message }));
    timer = setTimeout(() => {
      finish({ status: null, error: `no answer within ${Math.round(opts.timeoutMs)} ms` });
      req?.destroy();
    }, opts.timeoutMs);
    timer.unref();
    req.end(body);
  });
  return {
    result,
    abort: () => {
      req?.destroy(new Error('queue closed'));
    },
  };
}
