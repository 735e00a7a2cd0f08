// The failures the spec names, injected at documented points so that the partner's retry rules become
// observable (README, the injection table of `svc-certify partner`). Each fires once per session; `--no-inject` turns all off.
// Plain policy over request data: the CLI plugs it into the sandbox's generic hooks.

import { isJsonObject, parseJsonLossless, stringifyJsonLossless } from '../json/lossless.js';
import { INJECTION_POINTS } from './injection-points.js';
import type { InjectionId } from './traffic.js';

export { INJECTION_POINTS, type InjectionPoint } from './injection-points.js';

/** The held run reads `running` this long (spec time): past the 30-minute polling limit, long enough for a poller that ignores it to show. */
const HELD_RUNNING_MS = 35 * 60_000;

/** What the sandbox hooks hand over (structurally the sandbox's HookRequest). */
export interface InjectableRequest {
  id: number;
  method: string;
  path: string;
  body?: Buffer;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export type SimulateAnswer = { simulate: 'rate_limited' | 'rate_limit_unavailable' | 'internal_error'; retryAfterSeconds?: number };

export interface Injector {
  /** At the sandbox's simulate point: an answer instead of executing, or undefined. */
  simulate(req: InjectableRequest): SimulateAnswer | undefined;
  /** After execution: send the answer, drop it, or send another. */
  deliver(req: InjectableRequest, res: Answer): 'send' | 'drop' | { replace: Answer };
  /** The injection that answered request `id`, if any. */
  injectedFor(id: number): InjectionId | undefined;
  /** Injection points that have fired so far. */
  fired(): InjectionId[];
}

function pathOnly(path: string): string {
  const q = path.indexOf('?');
  return q < 0 ? path : path.slice(0, q);
}

function jobExternalId(body: Buffer | undefined): unknown {
  if (!body) return undefined;
  try {
    const v: unknown = JSON.parse(body.toString('utf8'));
    return v !== null && typeof v === 'object' && 'job_external_id' in v ? v.job_external_id : undefined;
  } catch {
    return undefined;
  }
}

function runIdOf(body: Buffer): string | undefined {
  try {
    const v: unknown = JSON.parse(body.toString('utf8'));
    const id = v !== null && typeof v === 'object' && 'run_id' in v ? v.run_id : undefined;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** The run read with `status: running` (lossless, so int64 candidate ids survive); undefined if already running. */
function asRunning(body: Buffer): Buffer | undefined {
  try {
    const v = parseJsonLossless(body.toString('utf8'));
    if (!isJsonObject(v) || v.status === 'running') return undefined;
    return Buffer.from(stringifyJsonLossless({ ...v, status: 'running' }), 'utf8');
  } catch {
    return undefined;
  }
}

/** `Retry-After` of the injected 429: the spec's 30 s divided by the time scale, rounded up, at least 1. */
export function injectedRetryAfter(timeScale: number): number {
  return Math.max(1, Math.ceil(30 / timeScale));
}

export function createInjector(opts: { timeScale: number; enabled: boolean }): Injector {
  const byRequest = new Map<number, InjectionId>();
  const done = new Set<InjectionId>();
  const readRuns = new Set<string>();
  let held: { runId: string; startedAt: number } | undefined;
  const fire = (id: InjectionId, req: InjectableRequest): true => {
    done.add(id);
    byRequest.set(req.id, id);
    return true;
  };
  return {
    simulate(req) {
      const path = pathOnly(req.path);
      const runRead = req.method === 'GET' ? /^\/v1\/runs\/([^/]+)$/.exec(path) : null;
      if (runRead) {
        const seen = readRuns.has(runRead[1]!);
        readRuns.add(runRead[1]!);
        if (opts.enabled && seen && !done.has('run-read-503') && fire('run-read-503', req)) return { simulate: 'rate_limit_unavailable' };
        return undefined;
      }
      if (!opts.enabled || req.method !== 'POST') return undefined;
      if (path === '/v1/runs' && !done.has('run-start-500')) {
        const job = jobExternalId(req.body);
        if (typeof job === 'string' && !job.startsWith('cert-') && fire('run-start-500', req)) return { simulate: 'internal_error' };
      }
      if (path === '/v1/users' && !done.has('rate-limited-429') && fire('rate-limited-429', req)) {
        return { simulate: 'rate_limited', retryAfterSeconds: injectedRetryAfter(opts.timeScale) };
      }
      return undefined;
    },
    deliver(req, res) {
      if (!opts.enabled) return 'send';
      const path = pathOnly(req.path);
      if (req.method === 'POST' && path === '/v1/activations/redeem' && res.status === 200 && !done.has('redeem-answer-lost')) {
        fire('redeem-answer-lost', req);
        return 'drop';
      }
      if (req.method === 'POST' && path === '/v1/runs' && res.status === 202 && held === undefined) {
        const job = jobExternalId(req.body);
        const runId = runIdOf(res.body);
        if (typeof job === 'string' && !job.startsWith('cert-') && runId !== undefined) held = { runId, startedAt: Date.now() };
        return 'send';
      }
      if (held && req.method === 'GET' && path === `/v1/runs/${held.runId}` && res.status === 200 && Date.now() - held.startedAt < HELD_RUNNING_MS / opts.timeScale) {
        const body = asRunning(res.body);
        if (body) {
          fire('run-held-running', req);
          return { replace: { status: res.status, headers: res.headers, body } };
        }
      }
      return 'send';
    },
    injectedFor: (id) => byRequest.get(id),
    fired: () => INJECTION_POINTS.map((p) => p.id).filter((id) => done.has(id)),
  };
}
