// Which environment the target is, judged from its behaviour as well as from the header under test.
// `x-svc-environment: sandbox` is itself something the certification checks, so it cannot be the only
// witness: a sandbox that forgets it would be certified as production and every sandbox check skipped.
// Two side-effect-free probes ask the behaviour (with the primary organization's token):
//   - POST /sandbox/webhooks/test with an event that does not exist: the sandbox route exists (422, or
//     409 webhook_not_configured); production answers 404 not_found (Sandbox-only errors).
//   - POST /runs for the unknown fixture `cert-zz-…`: the sandbox reserves the prefix (422
//     unknown_fixture); production knows no such job (404 job_not_found).
// Neither stores anything: a 4xx creates nothing, and an unknown event queues no delivery.

import { randomBytes } from 'node:crypto';
import type { ApiClient, ApiResponse } from '../http/types.js';
import { isJsonObject } from '../json/lossless.js';
import type { Environment, EnvironmentEvidence } from '../runner/results.js';

function errorCode(res: ApiResponse): string {
  return isJsonObject(res.json) && typeof res.json.error === 'string' ? ` ${res.json.error}` : '';
}

/** Reads the behaviour with an org token; each probe votes sandbox, production, or nothing. */
export async function probeBehaviour(
  api: ApiClient,
  orgToken: string,
  partnerKey: string,
): Promise<{ votes: Environment[]; signals: string[] }> {
  const auth = { partnerKey, orgToken };
  const nonce = randomBytes(4).toString('hex');
  const votes: Environment[] = [];
  const signals: string[] = [];
  const [route, fixture] = await Promise.all([
    api.post(
      '/sandbox/webhooks/test',
      { event: `zz_svc_certify_probe_${nonce}` },
      { auth, label: 'environment probe: sandbox-only route' },
    ),
    api.post(
      '/runs',
      {
        job_external_id: `cert-zz-svc-certify-probe-${nonce}`,
        acting_user_external_id: `svc-certify-probe-${nonce}`,
        target_count: 1,
      },
      { auth, label: 'environment probe: cert-* fixture prefix' },
    ),
  ]);
  const say = (res: ApiResponse, what: string, vote: Environment | undefined, why: string): void => {
    if (vote) votes.push(vote);
    signals.push(`${what} answered ${res.status}${errorCode(res)}: ${why}`);
  };
  const routeAnswer = `POST /sandbox/webhooks/test with an unknown event`;
  if (route.status === 404) say(route, routeAnswer, 'production', 'the sandbox-only route does not exist (production)');
  else if (route.status === 422 || route.status === 409 || route.status === 202)
    say(route, routeAnswer, 'sandbox', 'the sandbox-only route exists (sandbox)');
  else say(route, routeAnswer, undefined, 'tells nothing');
  const fixtureAnswer = 'POST /runs for an unknown cert-* fixture';
  const code = errorCode(fixture).trim();
  if (code === 'unknown_fixture')
    say(fixture, fixtureAnswer, 'sandbox', 'the cert- prefix is reserved for fixtures (sandbox)');
  else if (code === 'job_not_found')
    say(fixture, fixtureAnswer, 'production', 'a cert-* job is an ordinary unknown job (production)');
  else say(fixture, fixtureAnswer, undefined, 'tells nothing');
  return { votes, signals };
}

/** The behaviour's verdict when its votes agree; undefined when they are absent or split. */
export function behaviourOf(votes: readonly Environment[]): Environment | undefined {
  if (votes.length === 0) return undefined;
  return votes.every((v) => v === votes[0]) ? votes[0] : undefined;
}

/** The environment to certify: the behaviour when it tells, else the header. */
export function decideEnvironment(evidence: EnvironmentEvidence): Environment {
  return evidence.behaviour ?? evidence.header;
}

/** A sentence for a header check's failure: why the certification ran as this environment. */
export function describeEvidence(evidence: EnvironmentEvidence | undefined): string | undefined {
  if (!evidence || evidence.behaviour === undefined || evidence.behaviour === evidence.header) return undefined;
  return `the target behaves as ${evidence.behaviour} (${evidence.signals.join('; ')}) while x-svc-environment says ${evidence.header}; the certification ran the ${evidence.behaviour} checks`;
}
