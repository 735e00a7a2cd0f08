// The sandbox as a pure request → response function (testable without a socket), plus its operator.
import { createEngine, createWebhookQueue } from './collaborators.js';
import {
  ApiError,
  header,
  Serialized,
  type AppConfig,
  type AppContext,
  type Reply,
  type RequestContext,
  type SandboxRequest,
  type SandboxResponse,
} from './context.js';
import { emitTerminal } from './events.js';
import { resolveFaults } from './faults/index.js';
import { applyBodyVariants, contentTypeFor } from './variants/apply.js';
import { resolveVariants } from './variants/index.js';
import { hashSecret } from './ids.js';
import { stringifyJson } from './json.js';
import { errorMessage, type Lang } from './messages.js';
import { Operator } from './operator.js';
import { RateLimiter, type RateVerdict } from './rate-limit.js';
import { matchRoute } from './routing.js';
import { otherPartnersOrganization } from './other-partner.js';
import { Store, type Partner } from './store.js';
import type { SandboxHooks } from './hooks.js';
import { isOneOf } from './must.js';

export type { SandboxRequest, SandboxResponse } from './context.js';

export const MAX_BODY_BYTES = 1024 * 1024;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
export const SIMULATE_VALUES = [
  'rate_limited',
  'rate_limit_unavailable',
  'internal_error',
  'insufficient_credits',
] as const;

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

export function createSandboxApp(opts: SandboxAppOptions = {}): SandboxApp {
  const faults = resolveFaults(opts.faults ?? []);
  const timeScale = opts.timeScale ?? 1;
  if (!(timeScale > 0) || !Number.isFinite(timeScale)) throw new Error('timeScale must be a positive number');
  const config: AppConfig = {
    mode: opts.mode ?? 'sandbox',
    timeScale,
    rateLimitPerMinute: opts.rateLimitPerMinute ?? 120,
    rateLimitPerDay: opts.rateLimitPerDay ?? 20_000,
    createdStatus: opts.createdStatus ?? 200,
    allowLoopbackWebhooks: opts.allowLoopbackWebhooks ?? false,
    initialWalletBalance: opts.initialWalletBalance ?? 500,
    faults,
    variants: resolveVariants(opts.variants ?? []),
    log: opts.log ?? (() => {}),
  };
  const store = new Store();
  // Variant runs-read.real-run-outlasts-polling: the engine's clock runs 16 times slower than the rest.
  const engine = createEngine({
    seed: opts.seed,
    timeScale: config.variants.has('runs-read.real-run-outlasts-polling') ? timeScale / 16 : timeScale,
    faults,
    realisticText: config.variants.has('sandbox.realistic-profile-text'),
    neverRepeatForJob: config.variants.has('runs-read.never-repeat-candidate-for-job'),
    rankByExperience: config.variants.has('runs-read.ranked-by-experience'),
    ...(config.variants.has('runs-read.real-run-running-35-minutes') ? { runningAtLeastMs: 35 * 60_000 } : {}),
  });
  const queue = createWebhookQueue({
    timeScale,
    faults,
    variants: config.variants,
    sandboxHeader: config.mode === 'sandbox' || faults.has('production.webhook-environment-header'),
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
  });
  const app: AppContext = {
    config,
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

function simulated(app: AppContext, value: string, retryAfterSeconds = 30): Reply {
  switch (value) {
    case 'rate_limited': {
      const headers: Record<string, string> = app.config.faults.has('sandbox.simulate-no-retry-after')
        ? {}
        : { 'retry-after': String(retryAfterSeconds) };
      return errorReply(new ApiError(429, 'rate_limited', { retry_after_seconds: retryAfterSeconds }, headers));
    }
    case 'rate_limit_unavailable':
      return errorReply(
        new ApiError(
          app.config.faults.has('sandbox.simulate-unavailable-as-500') ? 500 : 503,
          'rate_limit_unavailable',
        ),
      );
    case 'internal_error':
      return errorReply(
        new ApiError(
          500,
          app.config.faults.has('sandbox.simulate-internal-error-code') ? 'server_error' : 'internal_error',
        ),
      );
    default:
      return errorReply(
        new ApiError(
          402,
          'insufficient_credits',
          // Variant sandbox.simulated-credits-required-null: a simulated refusal prices no reveal.
          {
            balance: 0,
            required: app.config.variants.has('sandbox.simulated-credits-required-null') ? null : 10,
            ...(app.config.faults.has('sandbox.simulate-credits-without-reason') ? {} : { reason: 'simulated' }),
          },
        ),
      );
  }
}

function dispatch(app: AppContext, req: SandboxRequest, hooks: SandboxHooks): Outcome {
  const { config, store } = app;
  const faults = config.faults;
  const sandbox = config.mode === 'sandbox';
  let lang = langOf(app, req, undefined);
  try {
    const q = req.path.indexOf('?');
    const path = q < 0 ? req.path : req.path.slice(0, q);
    if (!path.startsWith('/v1/')) throw new ApiError(404, 'not_found');
    const segments = path.slice(4).split('/');
    const route = matchRoute(segments);
    if (!route || (route.sandboxOnly && !sandbox && !faults.has('production.sandbox-route-served')))
      throw new ApiError(404, 'not_found');
    if (req.method !== route.method)
      throw new ApiError(405, 'method_not_allowed', { allowed_methods: [route.method] }, { allow: route.method });
    if (req.body && req.body.length > MAX_BODY_BYTES)
      throw new ApiError(413, 'payload_too_large', { max_bytes: MAX_BODY_BYTES });

    const simulate =
      sandbox || faults.has('production.simulate-honoured') ? header(req.headers, 'x-svc-sandbox-simulate') : undefined;
    if (
      simulate !== undefined &&
      faults.has('sandbox.simulate-before-auth') &&
      isOneOf(SIMULATE_VALUES, simulate.trim())
    ) {
      return { reply: simulated(app, simulate.trim()), lang };
    }

    const key = header(req.headers, 'x-partner-key');
    const partner = key ? store.partnersByKeyHash.get(hashSecret(key)) : undefined;
    if (!partner) {
      const status =
        (!key && faults.has('auth.missing-partner-key-403')) ||
        (key && route.name === 'jobs' && faults.has('auth.jobs-unknown-key-403'))
          ? 403
          : 401;
      throw new ApiError(
        status,
        key && faults.has('auth.unknown-key-wrong-code') ? 'invalid_org_token' : 'invalid_partner_key',
      );
    }
    lang = langOf(app, req, partner);
    // The faults: a simulated request is not counted; the window is kept per organization, not per partner.
    const scope = faults.has('limits.rate-limit-per-organization')
      ? `${partner.id}|${header(req.headers, 'x-svc-org') ?? ''}`
      : partner.id;
    const verdict: RateVerdict =
      simulate !== undefined && faults.has('limits.simulated-not-counted')
        ? { ok: true }
        : app.limiter.hit(partner, app.now(), scope);
    // The fault counts requests but never refuses one: the limit is not enforced.
    // Variant sandbox.simulated-answer-over-limit: counted above, but a simulated request keeps its simulated answer.
    const simulatedAnswer = simulate !== undefined && app.config.variants.has('sandbox.simulated-answer-over-limit');
    if (!verdict.ok && !faults.has('limits.rate-limit-unenforced') && !simulatedAnswer) {
      const headers: Record<string, string> = faults.has('limits.rate-limited-no-retry-after')
        ? {}
        : { 'retry-after': String(verdict.retryAfterSeconds) };
      throw new ApiError(429, 'rate_limited', { retry_after_seconds: verdict.retryAfterSeconds }, headers);
    }
    if (!partner.enabled) {
      throw faults.has('auth.disabled-partner-401')
        ? new ApiError(401, 'invalid_partner_key')
        : new ApiError(403, 'partner_disabled');
    }
    let org;
    if (route.needsOrg) {
      const token = header(req.headers, 'x-svc-org');
      if (!token)
        throw new ApiError(
          faults.has('auth.missing-org-token-403') ||
            (route.name === 'decisions' && faults.has('auth.decisions-missing-org-token-403'))
            ? 403
            : 401,
          'invalid_org_token',
        );
      org = store.orgsByTokenHash.get(hashSecret(token));
      if (org && org.partnerId !== partner.id && !faults.has('auth.org-token-any-partner'))
        throw otherPartnersOrganization(route.name, config.variants);
      if (!org)
        throw new ApiError(
          401,
          faults.has('auth.unknown-org-token-wrong-code') ? 'invalid_partner_key' : 'invalid_org_token',
        );
      if (!org.enabled && !faults.has('auth.disabled-organization-served'))
        throw new ApiError(403, 'organization_disabled');
    }
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
      return { reply: simulated(app, injected.simulate, injected.retryAfterSeconds), lang };
    }
    // The fault honours the header on reads only ("on any authenticated request", Sandbox behaviour).
    if (simulate !== undefined && !(req.method === 'POST' && faults.has('sandbox.simulate-ignored-on-post'))) {
      const value = simulate.trim();
      if (!isOneOf(SIMULATE_VALUES, value)) {
        const allowed = faults.has('sandbox.simulate-allowed-incomplete')
          ? SIMULATE_VALUES.filter((v) => v !== 'insufficient_credits')
          : [...SIMULATE_VALUES];
        throw new ApiError(422, 'invalid_request', { header: 'x-svc-sandbox-simulate', allowed });
      }
      config.log(`simulated ${value} for partner ${partner.keyPrefix}…`);
      // The fault carries the request out, then answers the simulated 503 ("nothing was executed").
      if (value === 'rate_limit_unavailable' && faults.has('sandbox.simulated-unavailable-executes')) {
        try {
          route.handler({
            app,
            method: req.method,
            segments,
            headers: req.headers,
            lang,
            partner,
            org,
            rawBody: req.body,
          });
        } catch {
          // Its own answer is dropped: the simulated one is sent all the same.
        }
      }
      return { reply: simulated(app, value), lang };
    }
    if (route.method === 'POST') {
      const ct = header(req.headers, 'content-type');
      const media = ct ? (ct.split(';', 1)[0] ?? '').trim().toLowerCase() : '';
      if (media !== 'application/json')
        throw new ApiError(415, 'unsupported_media_type', { expected: 'application/json' });
    }
    const rc: RequestContext = {
      app,
      method: req.method,
      segments,
      headers: req.headers,
      lang,
      partner,
      org,
      rawBody: req.body,
    };
    const reply = route.handler(rc);
    // The fault: answers to bodies with non-ASCII text built by another encoding path, which wraps them.
    if (
      faults.has('explore.non-ascii-success-off-schema') &&
      reply.status >= 200 &&
      reply.status < 300 &&
      /[^\x00-\x7f]/.test(req.body?.toString('utf8') ?? '')
    )
      return { reply: { ...reply, body: [reply.body] }, lang };
    return { reply, lang };
  } catch (e) {
    if (e instanceof ApiError) {
      // Unrouted answers (unknown path, wrong method) are a classic place for a framework's default body.
      if (
        (e.code === 'not_found' || e.code === 'method_not_allowed') &&
        faults.has('conventions.unrouted-without-envelope')
      ) {
        return { reply: { status: e.status, body: { detail: 'Not Found' } }, lang };
      }
      return { reply: errorReply(e), lang };
    }
    config.log(`internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return { reply: errorReply(new ApiError(500, 'internal_error')), lang };
  }
}

function finish(app: AppContext, { reply, lang }: Outcome, langDefaulted: boolean): SandboxResponse {
  const faults = app.config.faults;
  let payload = reply.body;
  if (payload instanceof ApiError) {
    const swapped: Lang = lang === 'he' ? 'en' : 'he';
    const msgLang: Lang = faults.has('conventions.message-not-localized')
      ? 'en'
      : faults.has('conventions.message-language-swapped')
        ? swapped
        : lang;
    const message =
      langDefaulted && faults.has('conventions.default-message-empty') ? '' : errorMessage(payload.code, msgLang);
    payload = { error: payload.code, message, ...payload.extra };
  }
  const variants = app.config.variants;
  const headers: Record<string, string> = {
    'content-type':
      faults.has('conventions.content-type-without-charset') ||
      (reply.status >= 400 && faults.has('conventions.error-without-charset'))
        ? 'application/json'
        : contentTypeFor(variants),
    'cache-control': 'no-store',
    ...reply.headers,
  };
  if (variants.has('http.connection-close')) headers.connection = 'close';
  const sandbox = app.config.mode === 'sandbox';
  const headerDropped =
    faults.has('sandbox.no-environment-header') ||
    (reply.status >= 400 && faults.has('sandbox.errors-without-environment-header')) ||
    (reply.status === 202 && faults.has('sandbox.accepted-without-environment-header'));
  if (sandbox ? !headerDropped : faults.has('production.environment-header')) {
    headers['x-svc-environment'] = 'sandbox';
  }
  const encoded = payload instanceof Serialized ? payload.bytes : Buffer.from(stringifyJson(payload), 'utf8');
  // The fault puts a stray 0xFF byte inside the first candidate name of a run read: invalid UTF-8.
  const nameAt = faults.has('conventions.invalid-utf8-in-run-read') ? encoded.indexOf('"name":"') : -1;
  const bytes =
    nameAt < 0
      ? encoded
      : Buffer.concat([encoded.subarray(0, nameAt + 8), Buffer.from([0xff]), encoded.subarray(nameAt + 8)]);
  const varied = variants.size > 0 ? applyBodyVariants(bytes, reply.status, variants) : bytes;
  // The fault: a byte-order mark before every JSON text (RFC 8259 §8.1: implementations must not add one).
  const body = faults.has('conventions.json-byte-order-mark') ? Buffer.concat([UTF8_BOM, varied]) : varied;
  return { status: reply.status, headers, body };
}
