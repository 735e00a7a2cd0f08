// The endpoints of v1 on the certifier's side, one row each (spec: Endpoints › Summary and each
// endpoint's section): its method, its path pattern, its request and response schemas, its section and
// whether it takes the org token. The OpenAPI description, the partner's recorder, injections and
// rules, the run-read journal and the exploration all read this table; it is the only place of the
// certifier that takes an API path apart (`matchEndpoint`) or puts one together (`pathOf`).
//
// The sandbox does not read it: it routes from its own reading of the spec (src/sandbox/routing.ts),
// so a wrong row here shows as a disagreement between the two, not as the same mistake on both sides.

import type { SchemaName } from '../schema/schema-names.js';
import type { SpecSection } from '../spec/section-names.js';
import { S } from '../spec/sections.js';

/** The schemas of the API (`results` is svc-certify's own output, not part of v1). */
export type ApiSchemaName = Exclude<SchemaName, 'results'>;

export interface EndpointRow {
  /** The method, upper case as on the wire. */
  method: 'GET' | 'POST';
  /** Relative to the API's base (which ends in /v1); `{name}` is one path segment, never empty. */
  path: string;
  /** The body's schema; none for a read. */
  request?: ApiSchemaName;
  /** The schema of the success answer. */
  response: ApiSchemaName;
  spec: SpecSection;
  /** Sent with `x-svc-org` (every endpoint but redeem, which carries the partner key only). */
  orgToken: boolean;
  /** Exists in the sandbox only (answers `404 not_found` in production). */
  sandboxOnly?: boolean;
}

export const ENDPOINTS = {
  redeem: {
    method: 'POST',
    path: '/activations/redeem',
    request: 'redeem-request',
    response: 'organization-connection',
    spec: S.redeem,
    orgToken: false,
  },
  users: {
    method: 'POST',
    path: '/users',
    request: 'user-request',
    response: 'user-response',
    spec: S.users,
    orgToken: true,
  },
  jobs: {
    method: 'POST',
    path: '/jobs',
    request: 'job-request',
    response: 'job-response',
    spec: S.jobs,
    orgToken: true,
  },
  'runs-start': {
    method: 'POST',
    path: '/runs',
    request: 'run-start-request',
    response: 'run-start-response',
    spec: S.runsStart,
    orgToken: true,
  },
  'runs-read': {
    method: 'GET',
    path: '/runs/{run_id}',
    response: 'run',
    spec: S.runsRead,
    orgToken: true,
  },
  reveal: {
    method: 'POST',
    path: '/runs/{run_id}/candidates/{candidate_id}/reveal',
    request: 'reveal-request',
    response: 'reveal-result',
    spec: S.reveal,
    orgToken: true,
  },
  decisions: {
    method: 'POST',
    path: '/runs/{run_id}/decisions',
    request: 'decisions-request',
    response: 'decisions-response',
    spec: S.decisions,
    orgToken: true,
  },
  'webhook-test': {
    method: 'POST',
    path: '/sandbox/webhooks/test',
    request: 'webhook-test-request',
    response: 'webhook-test-response',
    spec: S.webhookTest,
    orgToken: true,
    sandboxOnly: true,
  },
} as const satisfies Record<string, EndpointRow>;

export type EndpointName = keyof typeof ENDPOINTS;

/** The names of the parameters of a path pattern: `'/runs/{run_id}/decisions'` → `'run_id'`. */
type ParamsIn<P extends string> = P extends `${string}{${infer N}}${infer Rest}` ? N | ParamsIn<Rest> : never;
export type ParamName<N extends EndpointName> = ParamsIn<(typeof ENDPOINTS)[N]['path']>;

/** The path parameters of endpoint N, each as the client wrote it (percent-decoded): ids stay text, never numbers. */
type PathParams<N extends EndpointName> = { [K in ParamName<N>]: string };

export type Endpoint<N extends EndpointName = EndpointName> = (typeof ENDPOINTS)[N] & { name: N };

/** A request matched to its endpoint. A union over the names, so `params` is typed once `name` is known. */
export type EndpointMatch = {
  [N in EndpointName]: { name: N; endpoint: Endpoint<N>; params: PathParams<N> };
}[EndpointName];

/**
 * The version prefix of every path on the wire: the spec's base URL ends in `/v1`. The certifier's own
 * client is given the base URL and sends paths relative to it; a partner's requests reach the sandbox
 * with the prefix.
 */
const VERSION_PREFIX = '/v1';

const NAMES = Object.keys(ENDPOINTS) as EndpointName[];

export function endpoint<N extends EndpointName>(name: N): Endpoint<N> {
  return { ...ENDPOINTS[name], name };
}

/** Every endpoint, in the table's order. */
export const ENDPOINT_LIST: readonly Endpoint[] = NAMES.map((n) => endpoint(n));

/** A segment of a pattern: a literal, or the name of a parameter. */
type PatternSegment = { literal: string } | { param: string };

/** Each pattern as segments. */
const PATTERNS = ENDPOINT_LIST.map((e) => ({
  endpoint: e,
  segments: e.path
    .slice(1)
    .split('/')
    .map((s): PatternSegment => (s.startsWith('{') && s.endsWith('}') ? { param: s.slice(1, -1) } : { literal: s })),
}));

/** A segment percent-decoded; one that is not valid percent-encoding is kept as sent. */
function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The endpoint a request is for, and its path parameters; undefined for any other request. `path` is
 * relative to the API's base (as the certifier's client sends it); a query string is ignored.
 *
 * What matches (partner traffic is hostile input): the method exactly (upper case); the path segment by
 * segment, literals byte for byte (`//`, a trailing slash, a percent-encoded literal or another case do
 * not match); a parameter is any non-empty segment, of any length, percent-decoded where it is valid
 * percent-encoding and kept as sent where it is not. The sandbox routes the same shapes.
 */
export function matchEndpoint(method: string, path: string): EndpointMatch | undefined {
  const q = path.indexOf('?');
  const segments = (q < 0 ? path : path.slice(0, q)).split('/');
  if (segments.shift() !== '') return undefined;
  for (const { endpoint: e, segments: pattern } of PATTERNS) {
    if (e.method !== method || pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const fits = pattern.every((p, i) => {
      const s = segments[i]!;
      if ('literal' in p) return s === p.literal;
      params[p.param] = decodeSegment(s);
      return s !== '';
    });
    // The union's members differ only in the parameter names the pattern gave.
    if (fits) return { name: e.name, endpoint: e, params } as EndpointMatch;
  }
  return undefined;
}

/** matchEndpoint for a path as it is on the wire, under VERSION_PREFIX (a partner's requests to the sandbox). */
export function matchWireEndpoint(method: string, wirePath: string): EndpointMatch | undefined {
  if (!wirePath.startsWith(`${VERSION_PREFIX}/`)) return undefined;
  return matchEndpoint(method, wirePath.slice(VERSION_PREFIX.length));
}

/**
 * The path of endpoint `name` (relative to the API's base) with its parameters filled in, each
 * percent-encoded: a candidate id is passed as a bigint or its digits, never through a double.
 */
export function pathOf<N extends EndpointName>(name: N, params: { [K in ParamName<N>]: string | bigint }): string {
  const values: Record<string, string | bigint> = params;
  return ENDPOINTS[name].path.replace(/\{(\w+)\}/g, (_m, p: string) => encodeURIComponent(String(values[p])));
}

/** The parameter names of a path pattern, in order (the OpenAPI description lists them). */
export function paramNamesOf(e: Endpoint): string[] {
  return (PATTERNS.find((p) => p.endpoint.name === e.name)?.segments ?? []).flatMap((s) =>
    'param' in s ? [s.param] : [],
  );
}
