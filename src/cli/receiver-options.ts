// The options of `svc-certify receiver`; --webhook-secret is run's entry (same flag, variable, text
// and validator), required here (receiver-command.ts says so when it is missing).

import type { OptionSpec } from '../config/option-spec.js';
import { WEBHOOK_SECRET_OPTION } from '../config/run-options.js';

export const RECEIVER_OPTIONS = [
  {
    key: 'url',
    flag: '--url',
    arg: '<url>',
    // SVC_URL sat beside the names Kubernetes injects for a Service named `svc`: renamed, read for one release.
    env: 'SVC_RECEIVER_URL',
    formerEnv: 'SVC_URL',
    kind: 'string',
    description: 'the endpoint, https:// on a public host (as the service delivers)',
  },
  WEBHOOK_SECRET_OPTION,
  {
    key: 'allowPrivate',
    flag: '--allow-private',
    kind: 'boolean',
    description: 'allow http:// and private or loopback hosts (local testing)',
  },
  {
    key: 'insecure',
    flag: '--insecure',
    kind: 'boolean',
    description: 'accept a self-signed TLS certificate (staging)',
  },
  {
    key: 'orgExternalId',
    flag: '--org-external-id',
    arg: '<id>',
    kind: 'string',
    description:
      'organization_external_id the deliveries carry: one your receiver knows (default: one it does not, and a 4xx for it only warns)',
  },
  {
    key: 'runId',
    flag: '--run-id',
    arg: '<uuid>',
    kind: 'string',
    description: 'run_id the deliveries carry: a run your receiver knows (default: a fresh uuid per delivery)',
  },
  {
    key: 'jobExternalId',
    flag: '--job-external-id',
    arg: '<id>',
    kind: 'string',
    description: 'job_external_id the deliveries carry: the job of --run-id (default: one your receiver does not know)',
  },
] as const satisfies readonly OptionSpec[];
