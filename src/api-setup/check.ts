// A check of `run`: the engine's check model (src/runner/check.ts) given what a check of the API needs
// (needs.ts), its context (the target, the operator's inputs, a recorded API client, the API's
// assertions and the shared setup of setup-view.ts as what it may await). The suites define their
// checks with these.

import type { ApiClient, ApiResponse } from '../http/types.js';
import type { JsonValue } from '../json/lossless.js';
import type { Assertions, Finding } from '../runner/assertions.js';
import type { CheckControls, CheckDefinition as EngineCheckDefinition } from '../runner/check.js';
import type { EnvironmentEvidence, RecordedExchange } from '../runner/results.js';
import type { SchemaName } from '../schema/schema-names.js';
import type { SpecSection } from '../spec/section-names.js';
import type { WebhookReceiver } from '../webhook/receiver.js';
import type { Need } from './needs.js';
import type { SharedSetup } from './setup-view.js';

/**
 * A check of `run`: an `input` check names what unlocks it in `needs`; a `conditional` one says in
 * `notApplicableWhen` why it does not apply.
 */
export type CheckDefinition = EngineCheckDefinition<CheckContext, Need, SpecSection>;

/** What a check writes about a failure: its message says what was received and what the spec requires,
 * without the section: every Expect method appends `(<spec>)` to the message itself. */
export interface WrittenObservation extends Finding {
  spec: SpecSection;
}

/**
 * Recording assertions. Each returns whether it held and records an observation when it did not:
 * `that`, `fail` and `warn` are the vocabulary every command shares (runner/assertions.ts), the others
 * judge an HTTP answer. `warn` is for where the spec states a rule without a MUST, or its text reads two
 * ways: the check ends `warning`, not `failed`, unless a failure is also recorded; `reading` and
 * `otherReading` are appended to the message (before the section) so a person sees why this is not blame.
 */
export interface Expect extends Assertions<WrittenObservation, ApiResponse> {
  /** Status equals one of `expected`; '2xx' / '4xx' / '5xx' accept the class. */
  status(res: ApiResponse, expected: number | string | Array<number | string>, spec: SpecSection): boolean;
  /** Status, JSON content type, error envelope (`error` + `message` strings) and the given error code. */
  error(res: ApiResponse, status: number, code: string, spec: SpecSection): boolean;
  /** Body (or a value inside it) against a named schema of schemas/ (typed: a mistyped name does not compile). */
  schema(value: JsonValue | undefined, schemaName: SchemaName, spec: SpecSection, exchange?: ApiResponse): boolean;
  /** A header value; a function receives the value (undefined when absent). */
  header(
    res: ApiResponse,
    name: string,
    expected: string | RegExp | ((value: string | undefined) => boolean),
    spec: SpecSection,
    description?: string,
  ): boolean;
  /** Deep equality with a description of what was compared. */
  equal(actual: unknown, expected: unknown, what: string, spec: SpecSection, exchange?: ApiResponse): boolean;
  /**
   * The value at a JSON pointer of the response body equals `expected` (deep, bigint-aware) or satisfies
   * it (a function receives the value, undefined when absent); the observation records pointer,
   * expected (`description` when given) and received.
   */
  field(
    res: ApiResponse,
    pointer: string,
    expected: JsonValue | ((value: JsonValue | undefined) => boolean),
    spec: SpecSection,
    description?: string,
  ): boolean;
  /** Some item matches: otherwise "<what> has no item <description>", with the items as received. */
  some<T>(
    items: readonly T[],
    matches: (item: T) => boolean,
    observation: { what: string; description: string; spec: SpecSection; pointer?: string; received?: unknown },
    exchange?: ApiResponse,
  ): boolean;
}

/** What the exploration suite is given: its request cap, its seed and when to stop waiting for spare budget. */
export interface ExploreInputs {
  /** At most this many generated requests in the whole certification (--explore). */
  requests: number;
  /** --seed (fixed by default, drawn for `--seed random`): each check derives its own generator seed from it and its id. */
  seed: number;
  /**
   * Aborts when every other selected check has ended, with that time (ms since the epoch) as its
   * reason: the exploration then sends what is left within its grace (suites/explore/spare-budget.ts),
   * and nothing after. Absent when only exploration checks are selected (nothing to protect).
   */
  stop?: AbortSignal;
  /** Told each time a request is not sent because the grace is over (that check sends no more): the results say so. */
  onCut?: (graceMs: number) => void;
}

export interface TargetInfo {
  baseUrl: string;
  environment: 'sandbox' | 'production';
  /** With --environment auto: what the header and the behaviour said (src/api-setup/environment-evidence.ts). */
  environmentEvidence?: EnvironmentEvidence;
  timeScale: number;
  embedded: boolean;
  /** --rate-limit: the requests per minute the partner may send (120 by default, more by agreement). */
  rateLimit?: number;
}

/** Optional inputs from the configuration (secrets: never print them; the recorder redacts them). */
export interface CheckInputs {
  partnerKey: string;
  expiredCode?: string;
  disabledOrgToken?: string;
  disabledPartnerKey?: string;
  /** --other-partner-key: a second, enabled partner (partner isolation). */
  otherPartnerKey?: string;
  webhookSecret?: string;
  maxSpendCredits: number;
  /** --real-names-enabled: the operator showed real candidate names in the sandbox (after a data-processing agreement). */
  realNamesEnabled?: boolean;
  /** --watch-retries: watch a failing webhook's whole retry schedule. */
  watchRetries?: boolean;
  /** The generative exploration (absent with --explore 0): see ExploreInputs. */
  explore?: ExploreInputs;
}

export interface CheckContext extends CheckControls {
  readonly target: TargetInfo;
  /** Optional inputs from the configuration (secrets: never print them; the recorder redacts them). */
  readonly inputs: CheckInputs;
  readonly api: ApiClient;
  /** The certification's shared setup as this check sees it (memoized steps; their exchanges attached). */
  readonly setup: SharedSetup;
  readonly expect: Expect;
  /** The temporary webhook receiver, when one is configured (need 'webhook-receiver'). */
  readonly webhooks?: { receiver: WebhookReceiver; publicUrl: string };
  /**
   * Says the check sends nothing more and every shared step it awaits has resolved: it only watches for
   * deliveries (a quiet window) before it judges. The checks that run after all others may start then,
   * so their own quiet windows run beside this one instead of after it.
   */
  readonly onlyWatching: () => void;
}

/**
 * Gives each check its view of the certification's shared setup. `attach` receives the exchanges of
 * every step the check awaited; `api` is the check's own client; `paused` wraps every wait on a shared
 * step (the check's time budget stops meanwhile).
 */
export interface SetupProvider {
  forCheck(
    attach: (exchanges: RecordedExchange[]) => void,
    reservedCodes: string[],
    api: ApiClient,
    paused: <T>(step: () => Promise<T>) => Promise<T>,
  ): SharedSetup;
}
