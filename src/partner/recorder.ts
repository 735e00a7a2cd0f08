// Records the partner's traffic from the sandbox's observations. The input types mirror the sandbox's
// observation shapes structurally: src/partner never imports the sandbox (the CLI connects the two).

import type { Endpoint, InjectionId, PartnerRequest, Traffic, WebhookDelivery } from './traffic.js';

export interface ExchangeObservation {
  kind: 'exchange';
  request: { id: number; method: string; path: string; headers: Record<string, string | string[] | undefined>; body?: Buffer };
  receivedAt: number;
  answeredAt: number;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: Buffer;
  dropped: boolean;
  simulated: boolean;
}

/** One delivery attempt as the sandbox's hook saw it: a WebhookDelivery of the judged traffic. */
export interface AttemptObservation extends WebhookDelivery {
  kind: 'webhook-attempt';
}

export type Observation = ExchangeObservation | AttemptObservation;

/** Bodies beyond this are kept cut (a partner is not expected to send megabytes; evidence stays small). */
const KEEP_BYTES = 256 * 1024;

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function endpointOf(method: string, path: string): { endpoint: Endpoint; runId?: string } {
  const s = path.replace(/^\/v1\//, '').split('/');
  if (!path.startsWith('/v1/')) return { endpoint: 'other' };
  if (s.length === 2 && s[0] === 'activations' && s[1] === 'redeem' && method === 'POST') return { endpoint: 'redeem' };
  if (s.length === 1 && method === 'POST') {
    if (s[0] === 'users') return { endpoint: 'users' };
    if (s[0] === 'jobs') return { endpoint: 'jobs' };
    if (s[0] === 'runs') return { endpoint: 'runs-start' };
  }
  if (s[0] === 'runs' && s[1]) {
    const runId = decodeSegment(s[1]);
    if (s.length === 2 && method === 'GET') return { endpoint: 'runs-read', runId };
    if (s.length === 3 && s[2] === 'decisions' && method === 'POST') return { endpoint: 'decisions', runId };
    if (s.length === 5 && s[2] === 'candidates' && s[4] === 'reveal' && method === 'POST') return { endpoint: 'reveal', runId };
  }
  if (s.join('/') === 'sandbox/webhooks/test' && method === 'POST') return { endpoint: 'webhook-test' };
  return { endpoint: 'other' };
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function flatHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function text(buf: Buffer | undefined): string {
  if (!buf || buf.length === 0) return '';
  return buf.subarray(0, KEEP_BYTES).toString('utf8');
}

export interface Recorder {
  /** Feed one observation of the sandbox; `injected` names the injection that answered it, if any. */
  add(observation: Observation, injected?: InjectionId): void;
  traffic(): Traffic;
  /** Called after every new record (the live checklist re-judges). */
  onChange(listener: () => void): void;
}

export function createRecorder(): Recorder {
  const requests: PartnerRequest[] = [];
  const deliveries: WebhookDelivery[] = [];
  const listeners: Array<() => void> = [];
  return {
    add(o, injected) {
      if (o.kind === 'exchange') {
        const q = o.request.path.indexOf('?');
        const path = q < 0 ? o.request.path : o.request.path.slice(0, q);
        const query = q < 0 ? '' : o.request.path.slice(q + 1);
        const bodyText = text(o.request.body);
        const responseText = o.dropped ? '' : text(o.responseBody);
        const responseJson = o.dropped ? undefined : parseJson(responseText);
        const errorCode =
          !o.dropped && o.status >= 300 && typeof responseJson === 'object' && responseJson !== null && typeof (responseJson as { error?: unknown }).error === 'string'
            ? (responseJson as { error: string }).error
            : undefined;
        const where = endpointOf(o.request.method, path);
        const record: PartnerRequest = {
          id: o.request.id,
          at: o.receivedAt,
          answeredAt: o.answeredAt,
          method: o.request.method,
          path,
          query,
          endpoint: where.endpoint,
          ...(where.runId !== undefined ? { runId: where.runId } : {}),
          headers: flatHeaders(o.request.headers),
          bodyText,
          json: parseJson(bodyText),
          status: o.dropped ? 0 : o.status,
          lost: o.dropped,
          responseHeaders: o.dropped ? {} : { ...o.responseHeaders },
          responseText,
          responseJson,
          ...(errorCode !== undefined ? { errorCode } : {}),
          ...(injected ? { injected } : {}),
        };
        // Observations end in answer order; the judge reads requests in arrival order.
        let i = requests.length;
        while (i > 0 && requests[i - 1]!.id > record.id) i--;
        requests.splice(i, 0, record);
      } else {
        const { kind: _kind, ...rest } = o;
        deliveries.push({ ...rest });
      }
      for (const l of listeners) l();
    },
    traffic: () => ({ requests: requests.slice(), deliveries: deliveries.slice() }),
    onChange(listener) {
      listeners.push(listener);
    },
  };
}
