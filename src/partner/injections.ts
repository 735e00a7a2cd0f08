// The failures the spec names, injected at documented points so that the partner's retry rules become
// observable (DESIGN.md, Partner certification). Each fires once per session; `--no-inject` turns all off.
// Plain policy over request data: the CLI plugs it into the sandbox's generic hooks.

import type { InjectionId } from './traffic.js';

export interface InjectionPoint {
  id: InjectionId;
  /** Where it fires and what the partner sees: printed by --help and the README. */
  summary: string;
}

export const INJECTION_POINTS: readonly InjectionPoint[] = [
  { id: 'run-start-500', summary: 'the first real run start (POST /runs, job_external_id not starting with cert-) answers 500 internal_error and starts nothing' },
  { id: 'rate-limited-429', summary: "the first POST /users answers 429 rate_limited with Retry-After: the spec's 30 s ÷ time scale, rounded up (nothing stored)" },
  { id: 'run-read-503', summary: 'the first repeat read of a run (GET /runs/{run_id} of a run read before) answers 503 rate_limit_unavailable' },
  { id: 'redeem-answer-lost', summary: 'the first successful redeem (POST /activations/redeem) is carried out, but its connection is cut before the answer' },
];

/** What the sandbox hooks hand over (structurally the sandbox's HookRequest). */
export interface InjectableRequest {
  id: number;
  method: string;
  path: string;
  body?: Buffer;
}

export type SimulateAnswer = { simulate: 'rate_limited' | 'rate_limit_unavailable' | 'internal_error'; retryAfterSeconds?: number };

export interface Injector {
  /** At the sandbox's simulate point: an answer instead of executing, or undefined. */
  simulate(req: InjectableRequest): SimulateAnswer | undefined;
  /** After execution: drop the answer? */
  deliver(req: InjectableRequest, status: number): 'send' | 'drop';
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
    const v = JSON.parse(body.toString('utf8')) as unknown;
    return v !== null && typeof v === 'object' ? (v as { job_external_id?: unknown }).job_external_id : undefined;
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
    deliver(req, status) {
      if (!opts.enabled || done.has('redeem-answer-lost')) return 'send';
      if (req.method === 'POST' && pathOnly(req.path) === '/v1/activations/redeem' && status === 200) {
        fire('redeem-answer-lost', req);
        return 'drop';
      }
      return 'send';
    },
    injectedFor: (id) => byRequest.get(id),
    fired: () => INJECTION_POINTS.map((p) => p.id).filter((id) => done.has(id)),
  };
}
