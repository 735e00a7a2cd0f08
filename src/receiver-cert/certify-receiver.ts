// `svc-certify receiver`: judges the URL (Events, delivery rule 3), then sends every delivery of
// every check to the partner's endpoint and turns what came back into check results. Secrets are
// redacted from everything recorded (a receiver could echo the secret back).

import { setMaxListeners } from 'node:events';
import { lookup } from 'node:dns/promises';
import { createRedactor } from '../config/redact.js';
import { namedSecret } from '../config/secret-options.js';
import type { CheckResult, Observation, RecordedExchange } from '../runner/results.js';
import { runConcurrently } from '../runner/schedule.js';
import { createAssertions, observationOf, SECTION_APART, type Finding } from '../runner/assertions.js';
import { judgeAddress, judgeWebhookUrl } from './deliverable-url.js';
import { RECEIVER_CHECKS, URL_CHECK, type ReceiverCheck } from './receiver-checks.js';
import { ACK_TIMEOUT_MS, sendDelivery, type Answer } from './send-delivery.js';
import { decideOutcome, outcomeFields, type Ending, type SkipDecision } from '../runner/outcome.js';
import { reachReceiver } from './reach-receiver.js';
import { DEFAULT_IDS, type EnvelopeIds } from './deliveries.js';

export interface ReceiverCertOptions {
  url: string;
  secret: string;
  /** http:// and private or loopback hosts are allowed (local testing); the URL rule is then skipped. */
  allowPrivate: boolean;
  /** Accept a self-signed certificate (staging). */
  insecure: boolean;
  /** The acknowledgement time-out; 10 s (Limits) unless a test shortens it. */
  ackTimeoutMs?: number;
  userAgent: string;
  /** The organization and run the deliveries name (`--org-external-id`, `--run-id`); default ones the partner does not know. */
  envelope?: EnvelopeIds;
  /** Only these checks (tests); default all. */
  ids?: readonly string[];
  concurrency?: number;
  /**
   * The certification's own signal (SIGINT/SIGTERM): deliveries under way are cut, checks not started are
   * not run, and each check not ended is recorded interrupted (a failure seen before it still counts).
   */
  signal?: AbortSignal;
  /** Each result as soon as it is known, for live reporting: a redacted preview, never written. */
  onCheckEnd?: (result: CheckResult) => void;
}

const CONCURRENCY = 6;

const NOT_RUN = 'not run: the certification was interrupted (SIGINT/SIGTERM)';

/**
 * The receiver's checks, as recorded: the caller redacts the whole result once, as every certification
 * does; only the live preview of each check (`onCheckEnd`) is redacted here.
 */
export async function certifyReceiver(opts: ReceiverCertOptions): Promise<CheckResult[]> {
  const preview = createRedactor([namedSecret('webhookSecret', opts.secret)]);
  const wanted = (id: string): boolean => opts.ids === undefined || opts.ids.includes(id);
  const results: CheckResult[] = [];
  // Every delivery under way listens for the interrupt (6 checks at once, several deliveries each):
  // more than Node's default of 10, which is no leak here, and the warning must not reach the console.
  if (opts.signal) setMaxListeners(0, opts.signal);

  const urlResult = await judgeUrl(opts);
  if (wanted(URL_CHECK.id)) {
    results.push(urlResult);
    opts.onCheckEnd?.(preview.value(urlResult));
  }
  const blocked = urlResult.status === 'failed';
  if (!blocked) await reachReceiver(opts);

  const checks = RECEIVER_CHECKS.filter((c) => wanted(c.id));
  const ackTimeoutMs = opts.ackTimeoutMs ?? ACK_TIMEOUT_MS;
  const byId = new Map<string, CheckResult>();
  await runConcurrently(checks, opts.concurrency ?? CONCURRENCY, async (check) => {
    const result = opts.signal?.aborted
      ? base(check, 'skipped', NOT_RUN, { kind: 'interrupted', reason: NOT_RUN })
      : blocked
        ? base(
            check,
            'skipped',
            `not sent: ${urlResult.message}; fix the URL, or pass --allow-private to test a local receiver`,
            { kind: 'inconclusive', reason: '' },
          )
        : await runReceiverCheck(check, opts, ackTimeoutMs);
    byId.set(check.id, result);
    opts.onCheckEnd?.(preview.value(result));
  });
  // In the table's order, whatever order they ended in (each check ran: runConcurrently awaits all).
  results.push(...checks.flatMap((c) => byId.get(c.id) ?? []));
  return results;
}

function base(
  check: Pick<ReceiverCheck, 'id' | 'title' | 'suite' | 'spec' | 'evidence'>,
  status: CheckResult['status'],
  message: string,
  skip?: SkipDecision,
): CheckResult {
  return {
    id: check.id,
    title: check.title,
    suite: check.suite,
    spec: [...check.spec],
    ...outcomeFields({ status, message, ...(skip ? { skip } : {}) }),
    durationMs: 0,
    observations: [],
    exchanges: [],
    evidence: check.evidence,
  };
}

async function judgeUrl(opts: ReceiverCertOptions): Promise<CheckResult> {
  if (opts.allowPrivate) {
    // A local run is not the certification: the URL rule waits for the public staging URL.
    const reason = '--allow-private: the delivery rule for URLs (https, public host) was not judged';
    return base(URL_CHECK, 'skipped', reason, {
      kind: 'needs-input',
      reason,
      unlock: 'the public https:// URL (without --allow-private)',
    });
  }
  const verdict = judgeWebhookUrl(opts.url);
  const cite = `Events: "${URL_CHECK.sentence}"`;
  const fail = (message: string): CheckResult => ({
    ...base(URL_CHECK, 'failed', message),
    observations: [
      observationOf(SECTION_APART, { message, expected: 'an https:// URL on a public host', received: opts.url }, cite),
    ],
  });
  if (!verdict.ok) return fail(`the service would not deliver to ${opts.url}: ${verdict.reason}`);
  // A host name is judged by what it resolves to as well; a name that does not resolve is left to the deliveries.
  const addresses = await lookup(verdict.host, { all: true }).catch(() => []);
  for (const a of addresses) {
    const why = judgeAddress(a.address);
    if (why)
      return fail(
        `the service would not deliver to ${opts.url}: ${verdict.host} resolves to ${a.address}, in a ${why} range`,
      );
  }
  return base(URL_CHECK, 'passed', '');
}

async function runReceiverCheck(
  check: ReceiverCheck,
  opts: ReceiverCertOptions,
  ackTimeoutMs: number,
): Promise<CheckResult> {
  const started = Date.now();
  const exchanges: RecordedExchange[] = [];
  const observations: Observation[] = [];
  const cite = `${check.spec[0]}: "${check.sentence}"`;
  const indexOf = new Map<Answer, number>();
  let asserted = 0;
  let skip: SkipDecision | undefined;
  let ending: Ending = { kind: 'done' };
  // What the check saw before the signal: only that can blame the receiver.
  let observationsBeforeInterrupt = 0;
  const countBefore = (): void => {
    observationsBeforeInterrupt = observations.length;
  };
  if (opts.signal?.aborted) countBefore();
  else opts.signal?.addEventListener('abort', countBefore, { once: true });
  // The vocabulary every command shares, worded as partner and receiver word it: each observation cites
  // the sentence the check enforces in its own field (runner/assertions.ts).
  const expect = createAssertions<Finding, Answer>({
    wording: SECTION_APART,
    specOf: () => cite,
    observe(o, answer) {
      const index = answer ? indexOf.get(answer) : undefined;
      observations.push({ ...o, ...(index !== undefined ? { exchange: index } : {}) });
    },
    onAssert() {
      asserted += 1;
    },
  });
  try {
    await check.run({
      secret: opts.secret,
      ids: opts.envelope ?? DEFAULT_IDS,
      ackTimeoutMs,
      async send(d) {
        const a = await sendDelivery(d, {
          url: opts.url,
          insecure: opts.insecure,
          ackTimeoutMs,
          userAgent: opts.userAgent,
          ...(opts.signal ? { signal: opts.signal } : {}),
        });
        indexOf.set(a, exchanges.length);
        exchanges.push({ ...a.exchange, index: exchanges.length });
        return a;
      },
      expect,
      inconclusive(reason) {
        skip ??= { kind: 'inconclusive', reason };
      },
    });
  } catch (e) {
    ending = { kind: 'threw', error: e instanceof Error ? e : new Error(String(e)) };
  }
  opts.signal?.removeEventListener('abort', countBefore);
  if (opts.signal?.aborted) ending = { kind: 'interrupted' };
  const outcome = decideOutcome({
    declaration: check,
    ending,
    asserted,
    observations,
    observationsBeforeInterrupt,
    ...(skip ? { skip } : {}),
  });
  return {
    ...base(check, 'passed', ''),
    ...outcomeFields(outcome),
    durationMs: Date.now() - started,
    observations,
    exchanges,
  };
}
