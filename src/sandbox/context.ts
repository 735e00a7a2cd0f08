// Types shared by the app pipeline and the route handlers.
import type { Engine, WebhookQueue } from './collaborators.js';
import { isRecord, parseJson, type Json, type JsonRecord } from './json.js';
import type { Lang } from './messages.js';
import type { RateLimiter } from './rate-limit.js';
import type { Organization, Partner, Store } from './store.js';
import type { FaultSet } from './faults/index.js';
import type {
  AdmittedFacts,
  AnswerDetails,
  AnswerFacts,
  Points,
  RefusalDetails,
  RouteName,
  Settings,
} from './faults/points.js';
import type { RequirementRules } from './faults/requirement-rules.js';
import type { MaskingRules } from './faults/masking-rules.js';
import { ApiError, type Reply } from './api-error.js';
import { must } from './must.js';
import { strictTextRefused } from './text-policy.js';
import type { VariantSet } from './variants/index.js';

export { ApiError, type Reply } from './api-error.js';

export interface SandboxRequest {
  method: string;
  /** Path with optional query string, e.g. `/v1/runs/…`. */
  path: string;
  /** Header names in lower case (node:http gives them so). */
  headers: Record<string, string | string[] | undefined>;
  body?: Buffer;
  /** Sequence number given by the socket adapter, passed to the embedder's hooks. */
  id?: number;
}

export interface SandboxResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface AppConfig {
  mode: 'sandbox' | 'production';
  timeScale: number;
  rateLimitPerMinute: number;
  rateLimitPerDay: number;
  createdStatus: 200 | 201 | 202;
  allowLoopbackWebhooks: boolean;
  /** Wallet of a newly connected organization (production reveals spend it). */
  initialWalletBalance: number;
  faults: FaultSet;
  /** The sandbox's mode-dependent choices, as the faults at the settings point leave them. */
  settings: Settings;
  /** The rules requirements are judged by, as the faults at the requirementRules point leave them. */
  requirementRules: RequirementRules;
  /** What a sandbox masks, as the faults at the masking point leave it (before any variant). */
  masking: MaskingRules;
  /** Conformant variants switched on (src/sandbox/variants): each changes one choice the spec leaves open. */
  variants: VariantSet;
  log: (line: string) => void;
}

export interface AppContext {
  config: AppConfig;
  /** The named points where the active faults act (faults/points.ts). */
  points: Points;
  store: Store;
  engine: Engine;
  queue: WebhookQueue;
  limiter: RateLimiter;
  /** Timers to clear on close. */
  timers: Set<NodeJS.Timeout>;
  now(): number;
  /** An embedder's wish to hold a run's terminal webhook back (hooks.ts), if any. */
  terminalEventDelayMs?: (runId: string) => number | undefined;
}

export interface RequestContext {
  app: AppContext;
  route: RouteName;
  method: string;
  /** Path segments after `/v1`, e.g. ['runs', '<id>']. */
  segments: string[];
  headers: SandboxRequest['headers'];
  lang: Lang;
  partner: Partner;
  /** Set on every route but redeem. */
  org: Organization | undefined;
  rawBody: Buffer | undefined;
}

/** A body already serialized (cached run reads). */
export class Serialized {
  constructor(readonly bytes: Buffer) {}
}

/** Path segment `n` of a route whose pattern has it (the router matched the whole path). */
export function segment(rc: RequestContext, n: number): string {
  return must(rc.segments[n], `the route pattern has segment ${n}`);
}

export function header(headers: SandboxRequest['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The request body as a JSON object; malformed JSON and non-object bodies are refused with a 4xx. */
export function jsonBody(rc: RequestContext): JsonRecord {
  const text = rc.rawBody && rc.rawBody.length > 0 ? rc.rawBody.toString('utf8') : '';
  let value: Json;
  try {
    value = parseJson(text);
  } catch {
    // Changes nothing stored: the body parser itself fails (an answer no point sees, as it is thrown here).
    if (rc.app.config.faults.has('conventions.malformed-json-500')) throw new ApiError(500, 'internal_error');
    throw new ApiError(400, 'invalid_json');
  }
  const faults = rc.app.config.faults;
  // Changes nothing stored: the body parser fails on an array before the body point is reached.
  if (Array.isArray(value) && faults.has('explore.array-body-500')) throw new ApiError(500, 'internal_error');
  // Changes nothing stored: the fault is a text column in a 3-byte UTF-8 character set, which refuses the 4 bytes of an astral character.
  if (faults.has('explore.outside-bmp-500') && /[\u{10000}-\u{10FFFF}]/u.test(text))
    throw new ApiError(500, 'internal_error');
  if (!isRecord(value)) throw new ApiError(422, 'invalid_request', { reason: 'body must be a JSON object' });
  if (strictTextRefused(rc.app.config.variants, value))
    throw new ApiError(422, 'invalid_request', { reason: 'text with control characters or over 1000 characters' });
  return rc.app.points.body(value, { route: rc.route });
}

export function requireOrg(rc: RequestContext): Organization {
  if (!rc.org) throw new ApiError(401, 'invalid_org_token');
  return rc.org;
}

export function isSandbox(rc: RequestContext): boolean {
  return rc.app.config.mode === 'sandbox';
}

/** Where a refusal is made: the app, and the route once routing found one. */
export interface RefusalSite {
  app: AppContext;
  route?: RouteName | undefined;
}

function refusalAt(at: RefusalSite, facts: RefusalDetails, error: ApiError | undefined) {
  return at.app.points.refusal(error, at.route ? { ...facts, route: at.route } : facts);
}

/** Refuses with `error` as the faults at the refusal point shape it; returns if one lets the request through. */
export function refuse(at: RefusalSite, facts: RefusalDetails, error: ApiError | undefined): void {
  const e = refusalAt(at, facts, error);
  if (e) throw e;
}

/** The refusal `error` as the faults shape it, for a refusal nothing can be let through. */
export function refusal(at: RefusalSite, facts: RefusalDetails, error: ApiError): ApiError {
  return refusalAt(at, facts, error) ?? error;
}

/** Where the spec accepts the request: a fault at the refusal point may refuse it all the same. */
export function admit(at: RefusalSite, facts: AdmittedFacts): void {
  const e = refusalAt(at, { ...facts, cause: 'admitted' }, undefined);
  if (e) throw e;
}

/** A route's answer, as the faults at the answer point shape it. */
export function answer(rc: RequestContext, reply: Reply, facts: AnswerDetails = {}): Reply {
  // Each route states the facts of its own answer, so joined with its route they are that route's facts.
  const all = {
    ...facts,
    route: rc.route,
    sandbox: isSandbox(rc),
    requestText: () => rc.rawBody?.toString('utf8') ?? '',
  };
  return rc.app.points.answer(reply, all as AnswerFacts);
}
