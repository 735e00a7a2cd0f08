import { answer, ApiError, header, refuse, segment, Serialized, type Reply, type RequestContext } from '../context.js';
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

/** GET /runs/{run_id}: the run's current view; in the sandbox `x-svc-sandbox-reveal-price` (0–1000) sets every quote. */
export function runsReadRoute(rc: RequestContext): Reply {
  let priceOverride: number | undefined;
  const raw = rc.app.config.settings.revealPriceHeader ? header(rc.headers, 'x-svc-sandbox-reveal-price') : undefined;
  if (raw !== undefined) {
    const trimmed = raw.trim();
    const invalid = new ApiError(422, 'invalid_request', { header: 'x-svc-sandbox-reveal-price', min: 0, max: 1000 });
    if (!PRICE.test(trimmed)) throw invalid;
    if (Number(trimmed) > 1000) refuse(rc, { cause: 'reveal-price-over-1000' }, invalid);
    priceOverride = Number(trimmed);
  }
  const { run, org } = lookupRun(rc, segment(rc, 1));
  const useCache = cacheable(rc, run);
  const key = `${rc.lang}|${priceOverride ?? ''}`;
  if (useCache) {
    const hit = run.readCache.get(key);
    if (hit && hit.version === org.revealVersion) return answer(rc, { status: 200, body: new Serialized(hit.body) });
  }
  const state = currentState(rc.app, run, rc.lang);
  if (!state) throw new ApiError(404, 'run_not_found');
  const body = renderRun(rc.app, run, org, state, rc.lang, priceOverride);
  if (!useCache) return answer(rc, { status: 200, body });
  const bytes = Buffer.from(stringifyJson(body), 'utf8');
  run.readCache.set(key, { version: org.revealVersion, body: bytes });
  return answer(rc, { status: 200, body: new Serialized(bytes) });
}
