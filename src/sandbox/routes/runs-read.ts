import { ApiError, header, isSandbox, segment, Serialized, type Reply, type RequestContext } from '../context.js';
import { SLOW_FIXTURE_MS } from '../fixtures/definitions.js';
import { stringifyJson } from '../json.js';
import { currentState, renderRun } from '../run-view.js';
import type { Run } from '../store.js';
import { lookupRun } from './run-lookup.js';

const PRICE = /^[0-9]{1,4}$/;

/** A finished fixture run reads the same until a reveal changes a contact_state: its bytes can be reused. */
function cacheable(rc: RequestContext, run: Run): boolean {
  if (!run.fixture) return false;
  return run.fixture !== 'cert-slow' || rc.app.now() - run.createdAt >= SLOW_FIXTURE_MS / rc.app.config.timeScale;
}

export function runsReadRoute(rc: RequestContext): Reply {
  let priceOverride: number | undefined;
  const raw =
    isSandbox(rc) || rc.app.config.faults.has('production.reveal-price-honoured')
      ? header(rc.headers, 'x-svc-sandbox-reveal-price')
      : undefined;
  if (raw !== undefined && !rc.app.config.faults.has('sandbox.reveal-price-ignored')) {
    const trimmed = raw.trim();
    if (
      !PRICE.test(trimmed) ||
      (Number(trimmed) > 1000 && !rc.app.config.faults.has('sandbox.reveal-price-no-upper-bound'))
    ) {
      throw new ApiError(422, 'invalid_request', { header: 'x-svc-sandbox-reveal-price', min: 0, max: 1000 });
    }
    priceOverride = Number(trimmed);
  }
  const { run, org } = lookupRun(rc, segment(rc, 1));
  const useCache = cacheable(rc, run);
  const key = `${rc.lang}|${priceOverride ?? ''}`;
  if (useCache) {
    const hit = run.readCache.get(key);
    if (hit && hit.version === org.revealVersion) return { status: 200, body: new Serialized(hit.body) };
  }
  const state = currentState(rc.app, run, rc.lang);
  if (!state) throw new ApiError(404, 'run_not_found');
  const body = renderRun(rc.app, run, org, state, rc.lang, priceOverride);
  if (!useCache) return { status: 200, body };
  const bytes = Buffer.from(stringifyJson(body), 'utf8');
  run.readCache.set(key, { version: org.revealVersion, body: bytes });
  return { status: 200, body: new Serialized(bytes) };
}
