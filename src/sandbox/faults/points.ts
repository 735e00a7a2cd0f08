// The named points of the sandbox where a fault may act. Each point is one value the sandbox computes in
// one place (its settings, a refusal, a request body as read, a route's answer, the error envelope, the
// bytes on the wire, …); a fault declares, beside its id, a transform of that value. The active faults'
// transforms of a point are composed once, in registry order, into one chain — as undici composes its
// interceptors around a dispatch — and the sandbox applies the chain where the value is made. With no
// fault on, every point is the identity.
//
// A leaf: the faults import it, so it imports nothing of the app but the two leaves it speaks of.
import type { ApiError, Reply } from '../api-error.js';
import type { JsonRecord } from '../json.js';
import type { DeliveryPolicy } from './delivery-policy.js';
import type { MaskingRules } from './masking-rules.js';
import type { RequirementRules } from './requirement-rules.js';

export type RouteName =
  'redeem' | 'users' | 'jobs' | 'runs-start' | 'runs-read' | 'reveal' | 'decisions' | 'webhook-test';

/** Choices of the sandbox that depend on its mode (sandbox or production), settled once when it starts. */
export interface Settings {
  /** Sandbox-only routes (POST /sandbox/webhooks/test) are served. */
  sandboxRoutes: boolean;
  /** `x-svc-sandbox-simulate` is honoured ("on any authenticated request", Sandbox behaviour). */
  simulateHeader: boolean;
  /** …and read before authentication. */
  simulateBeforeAuth: boolean;
  /** …on POST requests too. */
  simulateOnPost: boolean;
  /** A simulated request counts toward the rate limit. */
  simulatedCounted: boolean;
  /** The rate-limit window is kept per partner and organization (the spec: per partner). */
  rateLimitPerOrganization: boolean;
  /** Answers carry `x-svc-environment: sandbox`. */
  environmentHeader: boolean;
  /** Webhook deliveries carry `x-svc-environment: sandbox`. */
  webhookEnvironmentHeader: boolean;
  /** `cert-*` job ids start fixture runs. */
  fixtures: boolean;
  /** `target_count` above 20 is refused with `sandbox_limit`. */
  sandboxTargetLimit: boolean;
  /** `x-svc-sandbox-reveal-price` overrides the quoted prices of a run read. */
  revealPriceHeader: boolean;
}

/** Why a request is refused (or, for `admitted`, the point where a fault may refuse what the spec accepts). */
type Cause =
  | 'no-partner-key'
  | 'unknown-partner-key'
  | 'partner-disabled'
  | 'rate-limited'
  | 'no-org-token'
  | 'other-partners-org'
  | 'unknown-org-token'
  | 'organization-disabled'
  | 'simulated'
  | 'simulate-value'
  | 'run-not-found'
  | 'acting-user-not-string'
  | 'unknown-user'
  | 'candidate-not-in-run'
  | 'insufficient-credits'
  | 'sandbox-limit'
  | 'target-count-below-one'
  | 'unknown-fixture'
  | 'unknown-job'
  | 'run-quota'
  | 'job-rejected'
  | 'unknown-decision'
  | 'reason-without-rejection'
  | 'unknown-reject-reason'
  | 'reveal-price-over-1000'
  | 'webhook-not-configured'
  | 'code-not-found'
  | 'code-already-redeemed'
  | 'code-expired'
  | 'external-id-taken'
  | 'code-found'
  | 'admitted';

/** What a refusal's facts add, cause by cause (a cause not named here adds nothing). */
interface RefusalFactsByCause {
  /** The run exists, in another organization. */
  'run-not-found': { foreign: boolean };
  /** Whether the recruiter is registered in another organization of the partner; the request starts a fixture run. */
  'unknown-user': { elsewhere: () => boolean; fixture?: boolean };
  /** The activation code as submitted (found once normalized). */
  'code-found': { codeInput: string };
  /** The request starts a fixture run. */
  'sandbox-limit': { fixture: boolean };
  admitted: AdmittedFacts;
}

/** What a request the spec accepts tells the faults that may refuse it all the same, where it is admitted. */
export interface AdmittedFacts {
  /** On every route: the request carried `x-svc-org`. */
  orgTokenGiven?: boolean;
  /** On reveal: the price and the wallet, in a sandbox reveal. */
  price?: number;
  walletBalance?: number;
  /** On decisions: one decision item, its candidate listed so far by the run. */
  item?: JsonRecord;
  listedSoFar?: () => boolean;
  /** On decisions: the notice codes reported, and those the run had already been told. */
  noticesShown?: readonly string[];
  noticesAlreadyShown?: readonly string[];
}

type RefusalDetailsOf<C extends Cause> = { cause: C } & (C extends keyof RefusalFactsByCause
  ? RefusalFactsByCause[C]
  : object);
/** A refusal's facts as the code that refuses states them: the cause, and what that cause adds. */
export type RefusalDetails = { [C in Cause]: RefusalDetailsOf<C> }[Cause];
/** A refusal's facts, discriminated by the cause; the route, once routing found one. */
type RefusalFacts = RefusalDetails & { route?: RouteName };

/** What an answer's facts add, route by route (the route is the discriminant). */
interface AnswerFactsByRoute {
  redeem: object;
  users: { created: boolean };
  jobs: { created: boolean };
  /** The run's fixture, on a fixture run. */
  'runs-start': { fixture?: string };
  'runs-read': object;
  /** The candidate, the run, whether the organization had revealed it before, the charge, the fixture. */
  reveal: { candidateId: bigint; runId: string; alreadyRevealed: boolean; charge: number; fixture?: string };
  /** The counts as stored (none when the run was not found) and the run's fixture. */
  decisions: { accepted?: number; duplicates?: number; fixture?: string };
  'webhook-test': object;
}

/** A route's answer facts as the route states them. */
export type AnswerDetails = AnswerFactsByRoute[RouteName];
type AnswerFactsOf<R extends RouteName> = {
  route: R;
  sandbox: boolean;
  /** The request's body as text ('' without one). */
  requestText: () => string;
} & AnswerFactsByRoute[R];
/** An answer's facts, discriminated by the route. */
export type AnswerFacts = { [R in RouteName]: AnswerFactsOf<R> }[RouteName];

interface RunViewFacts {
  runId: string;
  /** The run's fixture, on a fixture run. */
  fixture?: string;
  /** Reads of this real run served after it was seen finished, before this one (0 on a fixture run). */
  terminalReadsBefore: number;
  /** The run's notices as rendered in a language. */
  noticesIn: (lang: 'he' | 'en') => unknown[];
}

interface ChargeFacts {
  sandbox: boolean;
  /** The price of this reveal (the quote, or in a sandbox its override). */
  price: number;
  /** The organization revealed the candidate before, and in this very run. */
  alreadyRevealed: boolean;
  revealedInThisRun: boolean;
  /** The run read quoted the price through `x-svc-sandbox-reveal-price`. */
  overridden: boolean;
}

interface DecisionFacts {
  candidateId: bigint;
  decision: string;
  occurredAt: string;
}

interface EnvelopeFacts {
  status: number;
  lang: 'he' | 'en';
  /** The request named no language (no `x-svc-lang`). */
  langDefaulted: boolean;
  /** The envelope's message in the given language. */
  messageIn: (lang: 'he' | 'en') => string;
}

/** An answer as it leaves: status, headers and the bytes of the body. */
export interface Wire {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** A webhook delivery attempt as it leaves: its headers and the bytes of its body. */
export interface Delivery {
  headers: Record<string, string>;
  body: Uint8Array;
}

interface DeliveryFacts {
  /** The attempt's number, from 1. */
  attempt: number;
  /** The attempt is the bad-signature test, signed on purpose with a wrong secret. */
  wrongSignature: boolean;
  /** The `x-svc-signature` the body's bytes get with the partner's own secret. */
  validSignature: () => string;
}

interface PointTypes {
  /** The sandbox's settings, once at start. */
  settings: { value: Settings; facts: { sandbox: boolean } };
  /** The rules submitted requirements are judged by, and a run's list is built by, once at start. */
  requirementRules: { value: RequirementRules; facts: Record<string, never> };
  /** What a sandbox masks in the candidates it shows, once at start. */
  masking: { value: MaskingRules; facts: Record<string, never> };
  /** A refusal about to be thrown; `undefined` lets the request through (or, for `admitted`, is none yet). */
  refusal: { value: ApiError | undefined; facts: RefusalFacts };
  /** A request's JSON object body as the route reads it. */
  body: { value: JsonRecord; facts: { route: RouteName } };
  /** An int64 id read from the request (a candidate id). */
  id: { value: bigint; facts: { route: RouteName } };
  /** A run as a read shows it, before it is cached and answered (conformant variants add to it after). */
  runView: { value: Record<string, unknown>; facts: RunViewFacts };
  /** A webhook event's envelope as a delivery attempt sends it, before it is serialized and signed. */
  webhookEnvelope: { value: Record<string, unknown>; facts: { attempt: number; occurredAt: string } };
  /** A webhook delivery attempt as it leaves. */
  delivery: { value: Delivery; facts: DeliveryFacts };
  /** How the webhook queue delivers, once at start. */
  deliveryPolicy: { value: DeliveryPolicy; facts: Record<string, never> };
  /** What a reveal charges (a sandbox reveal states it and keeps the wallet). */
  charge: { value: number; facts: ChargeFacts };
  /** The key under which a decision is kept: a repeat of the key is a duplicate. */
  decisionKey: { value: string; facts: DecisionFacts };
  /** A route's answer, before it is rendered. */
  answer: { value: Reply; facts: AnswerFacts };
  /** The error envelope `{error, message, …}` of a refusal. */
  envelope: { value: Record<string, unknown>; facts: EnvelopeFacts };
  /** The answer as it leaves. */
  wire: { value: Wire; facts: Record<string, never> };
}

type PointName = keyof PointTypes;
type Transform<P extends PointName> = (
  value: PointTypes[P]['value'],
  facts: PointTypes[P]['facts'],
) => PointTypes[P]['value'];
/** What one fault does, point by point. */
export type Acts = { readonly [P in PointName]?: Transform<P> };
/** Every point as one transform: the chain of the active faults' transforms. */
export type Points = { readonly [P in PointName]: Transform<P> };

function chain<P extends PointName>(acts: readonly Acts[], point: P): Transform<P> {
  const transforms: Transform<P>[] = [];
  for (const a of acts) {
    const t: Transform<P> | undefined = a[point];
    if (t) transforms.push(t);
  }
  if (transforms.length === 0) return (value) => value;
  return (value, facts) => transforms.reduce((v, t) => t(v, facts), value);
}

/** The points of a sandbox whose active faults act as given, in that order. */
export function composePoints(acts: readonly Acts[]): Points {
  return {
    settings: chain(acts, 'settings'),
    requirementRules: chain(acts, 'requirementRules'),
    masking: chain(acts, 'masking'),
    refusal: chain(acts, 'refusal'),
    body: chain(acts, 'body'),
    id: chain(acts, 'id'),
    runView: chain(acts, 'runView'),
    webhookEnvelope: chain(acts, 'webhookEnvelope'),
    delivery: chain(acts, 'delivery'),
    deliveryPolicy: chain(acts, 'deliveryPolicy'),
    charge: chain(acts, 'charge'),
    decisionKey: chain(acts, 'decisionKey'),
    answer: chain(acts, 'answer'),
    envelope: chain(acts, 'envelope'),
    wire: chain(acts, 'wire'),
  };
}

type Value<P extends PointName> = PointTypes[P]['value'];

/** A transform of a route's answer only: its facts are typed by that route. */
export function onAnswer<R extends RouteName>(
  route: R,
  transform: (reply: Reply, facts: AnswerFacts & { route: R }) => Reply,
): Transform<'answer'> {
  return (reply, facts) => (atRoute(facts, route) ? transform(reply, facts) : reply);
}

/** A transform of the body a route reads, on that route only. */
export function onBody(route: RouteName, transform: (body: JsonRecord) => JsonRecord): Transform<'body'> {
  return (body, facts) => (facts.route === route ? transform(body) : body);
}

/** A transform of an id a route reads, on that route only. */
export function onId(route: RouteName, transform: (id: bigint) => bigint): Transform<'id'> {
  return (id, facts) => (facts.route === route ? transform(id) : id);
}

/**
 * A transform of one cause of refusal, or of a few (on one route, if given): its facts are typed by the cause. The
 * value is the refusal about to be thrown, `undefined` where the request is let through (always so for
 * `admitted`).
 */
export function onRefusal<C extends Cause>(
  at: C | { cause: C | readonly C[]; route: RouteName },
  transform: (error: Value<'refusal'>, facts: RefusalDetailsOf<C>) => Value<'refusal'>,
): Transform<'refusal'> {
  const [cause, route]: [C | readonly C[], RouteName?] = typeof at === 'object' ? [at.cause, at.route] : [at];
  return (error, facts) => {
    const of = ofCause(facts, cause);
    return of && (route === undefined || facts.route === route) ? transform(error, of) : error;
  };
}

function atRoute<R extends RouteName>(facts: AnswerFacts, route: R): facts is AnswerFacts & { route: R } {
  return facts.route === route;
}

/** The facts of a refusal of this cause, typed by it (TypeScript narrows no union by a generic literal). */
function ofCause<C extends Cause>(facts: RefusalFacts, cause: C | readonly C[]): RefusalDetailsOf<C> | undefined {
  const causes: readonly Cause[] = typeof cause === 'string' ? [cause] : cause;
  return causes.includes(facts.cause) ? (facts as RefusalDetailsOf<C>) : undefined;
}
