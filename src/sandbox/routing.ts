// The route table of v1: path shape → method → handler. Matching is by segments, no regex on the hot path.
import type { Reply, RequestContext } from './context.js';
import type { RouteName } from './faults/points.js';
import { decisionsRoute } from './routes/decisions.js';
import { jobsRoute } from './routes/jobs.js';
import { redeemRoute } from './routes/redeem.js';
import { revealRoute } from './routes/reveal.js';
import { runsReadRoute } from './routes/runs-read.js';
import { runsStartRoute } from './routes/runs-start.js';
import { usersRoute } from './routes/users.js';
import { webhookTestRoute } from './routes/webhook-test.js';

export interface Route {
  /** Stable name, for faults that break one endpoint only. */
  name: RouteName;
  method: 'GET' | 'POST';
  handler: (rc: RequestContext) => Reply;
  /** Everything but redeem needs the org token. */
  needsOrg: boolean;
  sandboxOnly: boolean;
}

const route = (
  name: Route['name'],
  method: Route['method'],
  handler: Route['handler'],
  needsOrg = true,
  sandboxOnly = false,
): Route => ({
  name,
  method,
  handler,
  needsOrg,
  sandboxOnly,
});

const REDEEM = route('redeem', 'POST', redeemRoute, false);
const USERS = route('users', 'POST', usersRoute);
const JOBS = route('jobs', 'POST', jobsRoute);
const RUNS_START = route('runs-start', 'POST', runsStartRoute);
const RUNS_READ = route('runs-read', 'GET', runsReadRoute);
const REVEAL = route('reveal', 'POST', revealRoute);
const DECISIONS = route('decisions', 'POST', decisionsRoute);
const WEBHOOK_TEST = route('webhook-test', 'POST', webhookTestRoute, true, true);

/** The route for a path shape, whatever the method; undefined for an unknown path. */
export function matchRoute(s: string[]): Route | undefined {
  switch (s.length) {
    case 1:
      if (s[0] === 'users') return USERS;
      if (s[0] === 'jobs') return JOBS;
      if (s[0] === 'runs') return RUNS_START;
      return undefined;
    case 2:
      if (s[0] === 'activations' && s[1] === 'redeem') return REDEEM;
      if (s[0] === 'runs' && s[1] !== '') return RUNS_READ;
      return undefined;
    case 3:
      if (s[0] === 'runs' && s[1] !== '' && s[2] === 'decisions') return DECISIONS;
      if (s[0] === 'sandbox' && s[1] === 'webhooks' && s[2] === 'test') return WEBHOOK_TEST;
      return undefined;
    case 5:
      if (s[0] === 'runs' && s[1] !== '' && s[2] === 'candidates' && s[3] !== '' && s[4] === 'reveal') return REVEAL;
      return undefined;
    default:
      return undefined;
  }
}
