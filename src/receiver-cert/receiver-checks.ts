// The checks of `svc-certify receiver`: what the spec asks of a partner's webhook endpoint, each
// with the sentence it enforces. Acknowledgement checks want a 2xx within 10 s for deliveries the
// service would send; refusal checks want exactly 401 for deliveries whose signature does not match.

import type { Assertions, Finding } from '../runner/assertions.js';
import type { SpecSection } from '../spec/section-names.js';
import type { CheckDeclaration } from '../runner/check-declaration.js';
import { createRegistry } from '../runner/registry.js';
import { S } from '../spec/sections.js';
import type { Answer } from './send-delivery.js';
import {
  bodies,
  bodyChangedDelivery,
  idsKnownToPartner,
  makeDelivery,
  type BodyBuilder,
  type Delivery,
  type EnvelopeIds,
  type SignatureMode,
} from './deliveries.js';

interface ReceiverCheckContext {
  readonly secret: string;
  /** The envelope's organization and run (`--org-external-id`, `--run-id`; defaults the partner does not know). */
  readonly ids: EnvelopeIds;
  readonly ackTimeoutMs: number;
  send(d: Delivery): Promise<Answer>;
  /**
   * The assertions every command shares (runner/assertions.ts): `that`/`fail` record a failure, `warn`
   * what the spec may not mean (the check warns, passing unless --strict); `answer` links the delivery
   * that proves it. Each counts as an answer judged: a check that judged nothing has not passed.
   */
  readonly expect: Assertions<Finding, Answer>;
  /** Nothing could be judged (no HTTP answer to look at): an inconclusive skip with the reason. */
  inconclusive(reason: string): void;
}

export const RECEIVER_SUITE = 'receiver';

/** What a receiver check declares: the shape every command's checks share (runner/check-declaration.ts). */
export interface ReceiverCheckDeclaration extends CheckDeclaration<SpecSection> {
  /** The sentence of the spec the check enforces, quoted in every failure. */
  sentence: string;
}

/**
 * When a check that expects 2xx may only warn: its delivery is refused, and so is a plain delivery naming
 * the same organization and run, so the refusal may be of identifiers the receiver does not know.
 */
const UNKNOWN_IDENTIFIERS =
  'the delivery and a plain one naming the same organization and run are both refused: the receiver may not know them (give --org-external-id and --run-id)';

/** A receiver check: it sends deliveries to the partner's endpoint and judges the answers. */
export interface ReceiverCheck extends ReceiverCheckDeclaration {
  run(t: ReceiverCheckContext): Promise<void>;
}

function described(a: Answer): string {
  if (a.timedOut) return 'no answer within the acknowledgement time-out';
  if (a.status === 0) return `no answer: ${a.error?.code ?? 'error'} ${a.error?.message ?? ''}`.trim();
  const location = a.exchange.response?.headers.location;
  return `HTTP ${a.status}${a.status >= 300 && a.status < 400 && location ? ` (redirect to ${location})` : ''}`;
}

/** A delivery signed with the webhook secret (or as `signature` says), carrying the session's identifiers. */
function delivery(t: ReceiverCheckContext, label: string, build: BodyBuilder, signature?: SignatureMode): Delivery {
  return makeDelivery(t.secret, label, build, signature, t.ids);
}

/**
 * A 4xx to a delivery naming an organization or run the partner never saw reads two ways: the
 * service sends events only for the partner's own organizations, so refusing a stranger's may be
 * deliberate; or the receiver refuses what it should acknowledge. Without `--org-external-id` and
 * `--run-id`, a plain signed run_completed with the same identifiers is sent as a control: refused
 * too, the receiver refuses the identifiers (the first reading is taken and the check warns, saying
 * how to judge it fully); acknowledged, the 4xx is about what the check probes and stays a failure.
 */
async function excusedByUnknownIds(t: ReceiverCheckContext, a: Answer, what: string): Promise<boolean> {
  if (idsKnownToPartner(t.ids) || a.status < 400 || a.status >= 500) return false;
  const control = await t.send(delivery(t, 'run_completed with the same identifiers (control)', bodies.runCompleted));
  if (control.status < 400 || control.status >= 500) return false;
  t.expect.warn(
    false,
    {
      message:
        `${what} was refused with ${described(a)}, and so was a plain run_completed naming organization ${JSON.stringify(t.ids.organizationExternalId)}` +
        `${t.ids.runId ? ` and run ${t.ids.runId}` : ' and a fresh run'}, which your receiver may not know`,
      reading: 'refusing an unknown organization or run is allowed',
      otherReading: 'every valid delivery is acknowledged',
      after: '. Give --org-external-id and --run-id of an organization and run it knows to judge it',
      expected: 'a 2xx answer within 10 s',
      received: described(a),
    },
    a,
  );
  return true;
}

/** A delivery the service would send must be acknowledged with a 2xx, within the time-out, not redirected. */
async function expectAck(t: ReceiverCheckContext, d: Delivery, what: string): Promise<boolean> {
  const a = await t.send(d);
  const acknowledged = a.status >= 200 && a.status < 300;
  if (!acknowledged && (await excusedByUnknownIds(t, a, what))) return false;
  const why = a.status >= 300 && a.status < 400 ? '; a 3xx is a failed attempt (redirects are never followed)' : '';
  return t.expect.that(
    acknowledged,
    {
      message: `${what} was not acknowledged: ${described(a)}${why}`,
      expected: 'a 2xx answer within 10 s',
      received: described(a),
    },
    a,
  );
}

/**
 * A delivery whose signature does not match is refused with 401. Decided reading: "answers `401` without
 * processing on mismatch" (Events, Signature) is explicit, and "must be answered non-2xx and not processed"
 * of the bad-signature test delivery is the weaker duty a 401 satisfies; so 401 passes, and a 2xx
 * (processed), no answer or another non-2xx fails, quoting the sentence. `svc-certify partner`'s
 * webhooks.bad-signature-refused reads it the same way.
 */
async function expectRefusal(t: ReceiverCheckContext, d: Delivery, what: string): Promise<void> {
  const a = await t.send(d);
  const processed = a.status === 0 || (a.status >= 200 && a.status < 300);
  const refused = t.expect.that(
    !processed,
    {
      message:
        a.status === 0
          ? `${what} was not answered (${described(a)}): the receiver "answers \`401\` without processing on mismatch"`
          : `${what} was accepted (${described(a)}): the signature is not verified as the spec says`,
      expected: 'HTTP 401',
      received: described(a),
    },
    a,
  );
  if (!refused || a.status === 401) return;
  // Refused all the same: a receiver that looks the organization up before the signature answers a stranger 4xx.
  if (await excusedByUnknownIds(t, a, what)) return;
  t.expect.that(
    false,
    {
      message: `${what} was refused with ${described(a)}, not 401: the receiver "answers \`401\` without processing on mismatch"`,
      expected: 'HTTP 401',
      received: described(a),
    },
    a,
  );
}

export const RECEIVER_CHECKS: ReceiverCheck[] = [
  {
    id: 'receiver.acknowledges-run-completed',
    suite: RECEIVER_SUITE,
    title: 'a signed run_completed is acknowledged with 2xx',
    evidence: 'provoked',
    warns: [UNKNOWN_IDENTIFIERS],
    spec: [S.events],
    sentence: 'A `2xx` answer means delivered. A non-`2xx` answer or no answer within 10 seconds is retried',
    async run(t) {
      await expectAck(t, delivery(t, 'run_completed', bodies.runCompleted), 'a valid run_completed');
    },
  },
  {
    id: 'receiver.acknowledges-run-failed',
    suite: RECEIVER_SUITE,
    title: 'a signed run_failed is acknowledged with 2xx',
    evidence: 'provoked',
    warns: [UNKNOWN_IDENTIFIERS],
    spec: [S.events],
    sentence: 'A `2xx` answer means delivered. A non-`2xx` answer or no answer within 10 seconds is retried',
    async run(t) {
      await expectAck(t, delivery(t, 'run_failed', bodies.runFailed), 'a valid run_failed');
    },
  },
  {
    id: 'receiver.acknowledges-candidate-revealed-int64-id',
    suite: RECEIVER_SUITE,
    title: 'a candidate_revealed whose candidate_id is above 2^53 is acknowledged with 2xx',
    evidence: 'provoked',
    warns: [UNKNOWN_IDENTIFIERS],
    spec: [S.events, S.identifiers],
    sentence: '`candidate_id` / candidate `id`: integer, int64 (may exceed 2^31)',
    async run(t) {
      await expectAck(
        t,
        delivery(t, 'candidate_revealed (candidate_id 2^53+1)', bodies.candidateRevealed),
        'a valid candidate_revealed with candidate_id 9007199254740993',
      );
    },
  },
  {
    id: 'receiver.ignores-unknown-fields',
    suite: RECEIVER_SUITE,
    title: 'a delivery with unknown fields is acknowledged with 2xx',
    evidence: 'provoked',
    warns: [UNKNOWN_IDENTIFIERS],
    spec: [S.events, S.versioning],
    sentence: 'Receivers ignore unknown fields.',
    async run(t) {
      await expectAck(
        t,
        delivery(t, 'run_completed with unknown fields', bodies.unknownFields),
        'a valid run_completed with unknown fields',
      );
    },
  },
  {
    id: 'receiver.acknowledges-unknown-event',
    suite: RECEIVER_SUITE,
    title: 'an unknown event name is acknowledged with 2xx',
    evidence: 'provoked',
    warns: [UNKNOWN_IDENTIFIERS],
    spec: [S.events, S.versioning],
    sentence: '`event`: event name; receivers ignore but acknowledge unknown events',
    async run(t) {
      // The duty is the event name: a 4xx is excused only when a known event with the same identifiers is refused too.
      await expectAck(
        t,
        delivery(t, 'unknown event zz_certification_probe', bodies.unknownEvent),
        'a valid delivery of an unknown event',
      );
    },
  },
  {
    id: 'receiver.acknowledges-repeated-event-id',
    suite: RECEIVER_SUITE,
    title: 'the same event_id delivered twice is acknowledged both times',
    evidence: 'provoked',
    warns: [UNKNOWN_IDENTIFIERS],
    spec: [S.events],
    sentence: 'Delivery is at-least-once. Receivers de-duplicate on `event_id`',
    async run(t) {
      const first = delivery(t, 'run_failed (first delivery)', bodies.runFailed);
      if (!(await expectAck(t, first, 'the first delivery of an event'))) return;
      await expectAck(
        t,
        { ...first, label: 'run_failed (same event_id again)' },
        'a repeated delivery of the same event_id',
      );
    },
  },
  {
    id: 'receiver.verifies-signature-over-raw-bytes',
    suite: RECEIVER_SUITE,
    title: 'a delivery with unusual but valid JSON formatting, signed over its exact bytes, is acknowledged',
    evidence: 'provoked',
    warns: [UNKNOWN_IDENTIFIERS],
    spec: [S.events],
    sentence: 'The receiver computes it over the bytes exactly as received',
    async run(t) {
      await expectAck(
        t,
        delivery(t, 'candidate_revealed, unusual formatting', bodies.unusualFormatting),
        'a valid delivery with unusual spacing, key order and escapes',
      );
    },
  },
  {
    id: 'receiver.answers-within-10-seconds',
    suite: RECEIVER_SUITE,
    title: 'a valid delivery is answered within 10 seconds',
    evidence: 'provoked',
    spec: [S.events, S.limits],
    sentence: 'A non-`2xx` answer or no answer within 10 seconds is retried with backoff',
    async run(t) {
      const a = await t.send(delivery(t, 'run_completed (timing)', bodies.runCompleted));
      // A reset or garbage is no answer either: the service retries it like a time-out.
      t.expect.that(
        !(a.timedOut || a.status === 0),
        {
          message: `a valid run_completed got no answer within ${t.ackTimeoutMs / 1000} s (${described(a)})`,
          expected: `an answer within ${t.ackTimeoutMs / 1000} s`,
          received: described(a),
        },
        a,
      );
    },
  },
  {
    id: 'receiver.never-redirects-a-delivery',
    suite: RECEIVER_SUITE,
    title: 'a valid delivery is not answered with a redirect',
    evidence: 'provoked',
    spec: [S.events],
    sentence: 'Redirects are never followed; any `3xx` counts as a failed attempt.',
    async run(t) {
      const a = await t.send(delivery(t, 'run_completed (redirect)', bodies.runCompleted));
      if (a.status === 0)
        return t.inconclusive(`no HTTP answer to judge (${described(a)}): whether it would redirect cannot be seen`);
      t.expect.that(
        !(a.status >= 300 && a.status < 400),
        {
          message: `a valid run_completed was answered ${described(a)}; the service never follows it`,
          expected: 'a 2xx answer',
          received: described(a),
        },
        a,
      );
    },
  },
  {
    id: 'receiver.refuses-wrong-secret-401',
    suite: RECEIVER_SUITE,
    title: 'a delivery signed with another secret is refused with 401',
    evidence: 'provoked',
    warns: [UNKNOWN_IDENTIFIERS],
    spec: [S.events],
    sentence: 'compares in constant time, and answers `401` without processing on mismatch',
    async run(t) {
      await expectRefusal(
        t,
        delivery(t, 'run_completed signed with another secret', bodies.runCompleted, { kind: 'wrong-secret' }),
        'a delivery signed with another secret',
      );
    },
  },
  {
    id: 'receiver.refuses-missing-signature-401',
    suite: RECEIVER_SUITE,
    title: 'a delivery without x-svc-signature is refused with 401',
    evidence: 'provoked',
    warns: [UNKNOWN_IDENTIFIERS],
    spec: [S.events],
    sentence: 'answers `401` without processing on mismatch',
    async run(t) {
      await expectRefusal(
        t,
        delivery(t, 'run_completed without x-svc-signature', bodies.runCompleted, { kind: 'none' }),
        'a delivery without a signature header',
      );
    },
  },
  {
    id: 'receiver.refuses-truncated-signature-401',
    suite: RECEIVER_SUITE,
    title: 'a delivery whose signature is cut short is refused with 401',
    evidence: 'provoked',
    warns: [UNKNOWN_IDENTIFIERS],
    spec: [S.events],
    sentence:
      '`x-svc-signature` is `sha256=` followed by the lowercase hexadecimal HMAC-SHA256 of the raw request body bytes',
    async run(t) {
      await expectRefusal(
        t,
        delivery(t, 'run_completed, signature cut to 32 hex digits', bodies.runCompleted, {
          kind: 'truncated',
          hexDigits: 32,
        }),
        'a delivery whose signature has only its first 32 hex digits',
      );
    },
  },
  {
    id: 'receiver.refuses-body-changed-after-signing-401',
    suite: RECEIVER_SUITE,
    title: 'a delivery whose body was changed after signing is refused with 401',
    evidence: 'provoked',
    warns: [UNKNOWN_IDENTIFIERS],
    spec: [S.events],
    sentence:
      'The receiver computes it over the bytes exactly as received, compares in constant time, and answers `401` without processing on mismatch.',
    async run(t) {
      await expectRefusal(t, bodyChangedDelivery(t.secret, t.ids), 'a delivery whose body was changed after signing');
    },
  },
];

/** The URL rule: judged from the URL itself, before any delivery is sent. */
export const URL_CHECK: ReceiverCheckDeclaration = {
  id: 'receiver.url-is-deliverable',
  suite: RECEIVER_SUITE,
  title: 'the URL is one the service delivers to (https, public host)',
  evidence: 'input',
  unlockedBy: '--url (the endpoint the partner registered)',
  spec: [S.events],
  sentence: 'The URL must be `https://` on a public host.',
};

/** Every receiver check, validated (runner/registry.ts), in the order the command runs and reports them. */
export const RECEIVER_REGISTRY = createRegistry<ReceiverCheckDeclaration>(
  [URL_CHECK, ...RECEIVER_CHECKS],
  [RECEIVER_SUITE],
  {
    order: 'as-declared',
  },
);
