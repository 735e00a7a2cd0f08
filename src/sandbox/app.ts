// The sandbox as a pure request → response function (testable without a socket), plus its operator.
import { createEngine, createWebhookQueue } from './collaborators.js';
import {
  admit,
  ApiError,
  header,
  refusal,
  refuse,
  Serialized,
  type AppConfig,
  type AppContext,
  type RefusalSite,
  type Reply,
  type RequestContext,
  type SandboxRequest,
  type SandboxResponse,
} from './context.js';
import { emitTerminal } from './events.js';
import { pointsOf, resolveFaults, type Settings } from './faults/index.js';
import { applyBodyVariants, contentTypeFor } from './variants/apply.js';
import { resolveVariants } from './variants/index.js';
import { hashSecret } from './ids.js';
import { stringifyJson } from './json.js';
import { errorMessage, type Lang } from './messages.js';
import { Operator } from './operator.js';
import { RateLimiter, type RateVerdict } from './rate-limit.js';
import { matchRoute, type Route } from './routing.js';
import { otherPartnersOrganization } from './other-partner.js';
import { Store, type Organization, type Partner } from './store.js';
import type { SandboxHooks } from './hooks.js';
import { isOneOf } from './must.js';
import { SIMULATE_VALUES } from './simulate-values.js';
import { SPEC_REQUIREMENT_RULES } from './faults/requirement-rules.js';
import { SPEC_MASKING } from './faults/masking-rules.js';

export const MAX_BODY_BYTES = 1024 * 1024;

export interface SandboxAppOptions {
  mode?: 'sandbox' | 'production';
  timeScale?: number;
  rateLimitPerMinute?: number;
  rateLimitPerDay?: number;
  faults?: readonly string[];
  variants?: readonly string[];
  allowLoopbackWebhooks?: boolean;
  createdStatus?: 200 | 201 | 202;
  seed?: number;
  initialWalletBalance?: number;
  log?: (line: string) => void;
  /** An embedder's hooks (see hooks.ts); the app consults `simulate` and reports webhook attempts to `observe`. */
  hooks?: SandboxHooks;
}

export interface SandboxApp {
  request(req: SandboxRequest): Promise<SandboxResponse>;
  /** The same, synchronously (the hot path of the node:http adapter). */
  handle(req: SandboxRequest): SandboxResponse;
  operator: Operator;
  context: AppContext;
  close(): Promise<void>;
}

/** What the mode decides: a sandbox serves its own routes, headers and fixtures; production none of them. */
function settingsOf(sandbox: boolean): Settings {
  return {
    sandboxRoutes: sandbox,
    simulateHeader: sandbox,
    simulateBeforeAuth: false,
    simulateOnPost: true,
    simulatedCounted: true,
    rateLimitPerOrganization: false,
    environmentHeader: sandbox,
    webhookEnvironmentHeader: sandbox,
    fixtures: sandbox,
    sandboxTargetLimit: sandbox,
    revealPriceHeader: sandbox,
  };
}

/** The engine's options: the active faults, and the choices of the conformant variants that it makes. */
function engineOptions(config: AppConfig, seed: number | undefined): Parameters<typeof createEngine>[0] {
  const { variants, timeScale } = config;
  // Variant runs-read.real-run-outlasts-polling: the engine's clock runs 16 times slower than the rest.
  return {
    seed,
    timeScale: variants.has('runs-read.real-run-outlasts-polling') ? timeScale / 16 : timeScale,
    faults: config.faults,
    realisticText: variants.has('sandbox.realistic-profile-text'),
    neverRepeatForJob: variants.has('runs-read.never-repeat-candidate-for-job'),
    rankByExperience: variants.has('runs-read.ranked-by-experience'),
    sliceByJob: variants.has('runs-read.pool-slice-per-job'),
    neverRepeatEver: variants.has('runs-read.never-repeat-candidate'),
    idRange: variants.has('ids.candidate-ids-above-2-53') ? 'above-2-53' : 'mixed',
    ...(variants.has('runs-read.real-run-running-35-minutes') ? { runningAtLeastMs: 35 * 60_000 } : {}),
  };
}

export function createSandboxApp(opts: SandboxAppOptions = {}): SandboxApp {
  const faults = resolveFaults(opts.faults ?? []);
  const points = pointsOf(faults);
  const mode = opts.mode ?? 'sandbox';
  const timeScale = opts.timeScale ?? 1;
  if (!(timeScale > 0) || !Number.isFinite(timeScale)) throw new Error('timeScale must be a positive number');
  const config: AppConfig = {
    mode,
    timeScale,
    rateLimitPerMinute: opts.rateLimitPerMinute ?? 120,
    rateLimitPerDay: opts.rateLimitPerDay ?? 20_000,
    createdStatus: opts.createdStatus ?? 200,
    allowLoopbackWebhooks: opts.allowLoopbackWebhooks ?? false,
    initialWalletBalance: opts.initialWalletBalance ?? 500,
    faults,
    settings: points.settings(settingsOf(mode === 'sandbox'), { sandbox: mode === 'sandbox' }),
    requirementRules: points.requirementRules(SPEC_REQUIREMENT_RULES, {}),
    masking: points.masking(SPEC_MASKING, {}),
    variants: resolveVariants(opts.variants ?? []),
    log: opts.log ?? (() => {}),
  };
  const store = new Store();
  const engine = createEngine(engineOptions(config, opts.seed));
  const queue = createWebhookQueue({
    timeScale,
    faults,
    points,
    variants: config.variants,
    sandboxHeader: config.settings.webhookEnvironmentHeader,
    allowLoopback: config.allowLoopbackWebhooks,
    target(partnerId) {
      const p = store.partners.get(partnerId);
      return p?.webhookUrl ? { url: p.webhookUrl, secret: p.webhookSecret } : undefined;
    },
    paused(partnerId, organizationId) {
      return !store.partners.get(partnerId)?.enabled || !store.organizations.get(organizationId)?.enabled;
    },
    log: config.log,
    ...(opts.hooks?.observe ? { onAttempt: opts.hooks.observe } : {}),
    ...(opts.hooks?.redeliverAfterMs ? { redeliverAfterMs: opts.hooks.redeliverAfterMs.bind(opts.hooks) } : {}),
  });
  const app: AppContext = {
    config,
    points,
    store,
    engine,
    queue,
    limiter: new RateLimiter(timeScale),
    timers: new Set(),
    now: Date.now,
    ...(opts.hooks?.terminalEventDelayMs
      ? { terminalEventDelayMs: opts.hooks.terminalEventDelayMs.bind(opts.hooks) }
      : {}),
  };
  engine.onTerminal((runId, snapshot) => {
    const run = store.runs.get(runId);
    if (run) emitTerminal(app, run, snapshot);
  });
  const hooks = opts.hooks ?? {};
  const handle = (req: SandboxRequest) =>
    finish(app, dispatch(app, req, hooks), header(req.headers, 'x-svc-lang') === undefined);
  return {
    handle,
    request: async (req) => handle(req),
    operator: new Operator(app),
    context: app,
    async close() {
      for (const t of app.timers) clearTimeout(t);
      app.timers.clear();
      engine.close();
      await queue.close();
    },
  };
}

interface Outcome {
  reply: Reply;
  lang: Lang;
}

function langOf(app: AppContext, req: SandboxRequest, partner: Partner | undefined): Lang {
  const v = header(req.headers, 'x-svc-lang');
  if (v !== undefined) {
    const tag = v.trim().toLowerCase();
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
    if (tag === 'he' || tag.startsWith('he-')) return 'he';
  }
  // Variant conventions.agreed-english-default: English is the default agreed with every partner.
  if (app.config.variants.has('conventions.agreed-english-default')) return 'en';
  return partner?.defaultLang ?? 'he';
}

function errorReply(e: ApiError): Reply {
  return { status: e.status, body: e, headers: e.headers };
}

/** The refusal `x-svc-sandbox-simulate` (or an embedder's hook) asks for (Sandbox behaviour). */
function simulatedError(app: AppContext, value: string, retryAfterSeconds: number): ApiError {
  switch (value) {
    case 'rate_limited':
      return new ApiError(
        429,
        'rate_limited',
        { retry_after_seconds: retryAfterSeconds },
        { 'retry-after': String(retryAfterSeconds) },
      );
    case 'rate_limit_unavailable':
      return new ApiError(503, 'rate_limit_unavailable');
    case 'internal_error':
      return new ApiError(500, 'internal_error');
    default:
      // Variant sandbox.simulated-credits-required-null: a simulated refusal prices no reveal.
      return new ApiError(402, 'insufficient_credits', {
        balance: 0,
        required: app.config.variants.has('sandbox.simulated-credits-required-null') ? null : 10,
        reason: 'simulated',
      });
  }
}

/** The simulated answer, as the faults at the refusal point shape it. */
function simulated(at: RefusalSite, value: string, retryAfterSeconds = 30): Reply {
  return errorReply(refusal(at, { cause: 'simulated' }, simulatedError(at.app, value, retryAfterSeconds)));
}

/** The partner of `x-partner-key` (Authentication). */
function partnerOf(at: RefusalSite, req: SandboxRequest): Partner {
  const key = header(req.headers, 'x-partner-key');
  const partner = key ? at.app.store.partnersByKeyHash.get(hashSecret(key)) : undefined;
  if (!partner)
    throw refusal(
      at,
      { cause: key ? 'unknown-partner-key' : 'no-partner-key' },
      new ApiError(401, 'invalid_partner_key'),
    );
  return partner;
}

/** Counts the request in the partner's window and refuses it over the limit (Rate limits). */
function limitRate(at: RefusalSite, req: SandboxRequest, partner: Partner, simulate: string | undefined): void {
  const { app } = at;
  const scope = app.config.settings.rateLimitPerOrganization
    ? `${partner.id}|${header(req.headers, 'x-svc-org') ?? ''}`
    : partner.id;
  const counted = simulate === undefined || app.config.settings.simulatedCounted;
  const verdict: RateVerdict = counted ? app.limiter.hit(partner, app.now(), scope) : { ok: true };
  // Variant sandbox.simulated-answer-over-limit: counted above, but a simulated request keeps its simulated answer.
  const simulatedAnswer = simulate !== undefined && app.config.variants.has('sandbox.simulated-answer-over-limit');
  if (!verdict.ok && !simulatedAnswer)
    refuse(
      at,
      { cause: 'rate-limited' },
      new ApiError(
        429,
        'rate_limited',
        { retry_after_seconds: verdict.retryAfterSeconds },
        { 'retry-after': String(verdict.retryAfterSeconds) },
      ),
    );
}

/** The organization of `x-svc-org`, which must be the partner's and enabled (Authentication). */
function organizationOf(at: RefusalSite & { route: Route['name'] }, req: SandboxRequest, partner: Partner) {
  const token = header(req.headers, 'x-svc-org');
  if (!token) throw refusal(at, { cause: 'no-org-token' }, new ApiError(401, 'invalid_org_token'));
  const org = at.app.store.orgsByTokenHash.get(hashSecret(token));
  if (!org) throw refusal(at, { cause: 'unknown-org-token' }, new ApiError(401, 'invalid_org_token'));
  if (org.partnerId !== partner.id)
    refuse(at, { cause: 'other-partners-org' }, otherPartnersOrganization(at.route, at.app.config.variants));
  if (!org.enabled) refuse(at, { cause: 'organization-disabled' }, new ApiError(403, 'organization_disabled'));
  return org;
}

function dispatch(app: AppContext, req: SandboxRequest, hooks: SandboxHooks): Outcome {
  const { config } = app;
  const { settings } = config;
  let lang = langOf(app, req, undefined);
  try {
    const q = req.path.indexOf('?');
    const path = q < 0 ? req.path : req.path.slice(0, q);
    if (!path.startsWith('/v1/')) throw new ApiError(404, 'not_found');
    const segments = path.slice(4).split('/');
    const route = matchRoute(segments);
    if (!route || (route.sandboxOnly && !settings.sandboxRoutes)) throw new ApiError(404, 'not_found');
    if (req.method !== route.method)
      throw new ApiError(405, 'method_not_allowed', { allowed_methods: [route.method] }, { allow: route.method });
    if (req.body && req.body.length > MAX_BODY_BYTES)
      throw new ApiError(413, 'payload_too_large', { max_bytes: MAX_BODY_BYTES });
    const at = { app, route: route.name };

    const simulate = settings.simulateHeader ? header(req.headers, 'x-svc-sandbox-simulate') : undefined;
    if (simulate !== undefined && settings.simulateBeforeAuth && isOneOf(SIMULATE_VALUES, simulate.trim()))
      return { reply: simulated(at, simulate.trim()), lang };

    const partner = partnerOf(at, req);
    lang = langOf(app, req, partner);
    limitRate(at, req, partner, simulate);
    if (!partner.enabled) throw refusal(at, { cause: 'partner-disabled' }, new ApiError(403, 'partner_disabled'));
    const org = route.needsOrg ? organizationOf(at, req, partner) : undefined;
    const rc = contextOf(app, req, route, segments, lang, partner, org);

    const injected = hooks.simulate?.({
      id: req.id ?? 0,
      method: req.method,
      path: req.path,
      headers: req.headers,
      route: route.name,
      ...(req.body ? { body: req.body } : {}),
    });
    if (injected) {
      config.log(`injected ${injected.simulate} for partner ${partner.keyPrefix}…`);
      return { reply: simulated(at, injected.simulate, injected.retryAfterSeconds), lang };
    }
    if (simulate !== undefined && (req.method !== 'POST' || settings.simulateOnPost)) {
      const value = simulate.trim();
      if (!isOneOf(SIMULATE_VALUES, value))
        throw refusal(
          at,
          { cause: 'simulate-value' },
          new ApiError(422, 'invalid_request', { header: 'x-svc-sandbox-simulate', allowed: [...SIMULATE_VALUES] }),
        );
      config.log(`simulated ${value} for partner ${partner.keyPrefix}…`);
      // Inline, as it changes state: the request is carried out, yet the simulated 503 says nothing was executed.
      if (value === 'rate_limit_unavailable' && config.faults.has('sandbox.simulated-unavailable-executes')) {
        try {
          route.handler(rc);
        } catch {
          // dropped
        }
      }
      return { reply: simulated(at, value), lang };
    }
    if (route.method === 'POST') {
      const ct = header(req.headers, 'content-type');
      const media = ct ? (ct.split(';', 1)[0] ?? '').trim().toLowerCase() : '';
      if (media !== 'application/json')
        throw new ApiError(415, 'unsupported_media_type', { expected: 'application/json' });
    }
    admit(at, { orgTokenGiven: header(req.headers, 'x-svc-org') !== undefined });
    return { reply: route.handler(rc), lang };
  } catch (e) {
    if (e instanceof ApiError) return { reply: errorReply(e), lang };
    config.log(`internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return { reply: errorReply(new ApiError(500, 'internal_error')), lang };
  }
}

/** The request as its route handler sees it, once the partner and organization are settled. */
function contextOf(
  app: AppContext,
  req: SandboxRequest,
  route: Route,
  segments: string[],
  lang: Lang,
  partner: Partner,
  org: Organization | undefined,
): RequestContext {
  return {
    app,
    route: route.name,
    method: req.method,
    segments,
    headers: req.headers,
    lang,
    partner,
    org,
    rawBody: req.body,
  };
}

/** The reply as bytes: the error envelope in the caller's language, the headers every answer carries. */
function finish(app: AppContext, { reply, lang }: Outcome, langDefaulted: boolean): SandboxResponse {
  const { points, config } = app;
  const variants = config.variants;
  let payload = reply.body;
  if (payload instanceof ApiError) {
    const { code, extra } = payload;
    payload = points.envelope(
      { error: code, message: errorMessage(code, lang), ...extra },
      { status: reply.status, lang, langDefaulted, messageIn: (l) => errorMessage(code, l) },
    );
  }
  const headers: Record<string, string> = {
    'content-type': contentTypeFor(variants),
    'cache-control': 'no-store',
    ...reply.headers,
  };
  if (variants.has('http.connection-close')) headers.connection = 'close';
  if (config.settings.environmentHeader) headers['x-svc-environment'] = 'sandbox';
  const encoded = payload instanceof Serialized ? payload.bytes : Buffer.from(stringifyJson(payload), 'utf8');
  const body = variants.size > 0 ? applyBodyVariants(encoded, reply.status, variants) : encoded;
  return points.wire({ status: reply.status, headers, body }, {});
}
