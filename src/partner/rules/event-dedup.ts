// A repeated delivery is not acted on again (Events, delivery rule 5: "Delivery is at-least-once.
// Receivers de-duplicate on `event_id` … `event_id` de-duplication is the replay protection"). The
// injection event-delivered-twice sends an acknowledged event again with the same event_id; what the
// client did after the first delivery is compared with what it does after the repeat. Reading the run
// again is harmless (a read changes nothing); doing a write again that the first delivery prompted —
// reporting the decisions or notices again, revealing again, starting the run again — is acting twice
// on one event.

import { S } from '../../spec/sections.js';
import type { JudgeContext, PartnerRequest, WebhookDelivery } from '../traffic.js';
import { actionOf, decisionItemsOf } from './decision-items.js';
import { canonical } from './retry-chains.js';
import { ruleVerdict, type Rule, type TrafficObservation } from './rule.js';

/** The job a run start names, if its body said. */
function jobOf(r: PartnerRequest): string | undefined {
  const job = (r.json as { job_external_id?: unknown } | undefined)?.job_external_id;
  return typeof job === 'string' ? job : undefined;
}

/**
 * What a report on the event's run reports: each decision (its candidate and action, whenever it
 * occurred) and each notice code, so that another report on the run (a recruiter's next decision) is not
 * taken for the same one; the call itself when its body does not say (unread, or nothing in it).
 */
function reportedOf(r: PartnerRequest): string[] {
  const items = decisionItemsOf(r).map((i) => `report ${i.candidate} ${actionOf(i)}`);
  const notices = (r.json as { notices_shown?: unknown } | undefined)?.notices_shown;
  const codes = Array.isArray(notices) ? notices.map((c) => `report notice ${canonical(c)}`) : [];
  return items.length + codes.length > 0 ? [...items, ...codes] : [`${r.method} ${r.path}`];
}

/**
 * What a write acts on for the event's run, so that the same act after the repeat is recognized: what
 * a report on that run reports, a reveal on it by its path (the run, the candidate), a run start of that
 * run's job. Reads, upserts, acts on other runs and anything else are not what the event prompted.
 */
function actsOf(r: PartnerRequest, runId: string, job: string | undefined): string[] {
  if (r.endpoint === 'decisions' && r.runId === runId) return reportedOf(r);
  if (r.endpoint === 'reveal' && r.runId === runId) return [`${r.method} ${r.path}`];
  if (r.endpoint === 'runs-start' && job !== undefined && jobOf(r) === job) return [`start a run of ${job}`];
  return [];
}

/** The job of the run an event names: the one its accepted start named, when the client started it. */
function jobOfRun(requests: readonly PartnerRequest[], runId: string): string | undefined {
  const start = requests.find(
    (r) => r.endpoint === 'runs-start' && (r.responseJson as { run_id?: unknown } | undefined)?.run_id === runId,
  );
  return start ? jobOf(start) : undefined;
}

/**
 * A later valid delivery of an event, beside the event's first: the injected repeat of an acknowledged
 * one, or a retry after an answer that came too late or not at all (the receiver may have acted on the
 * first all the same; a receiver that refused it did nothing to repeat).
 */
interface Repeat {
  first: WebhookDelivery;
  repeat: WebhookDelivery;
}

function repeatsOf(deliveries: readonly WebhookDelivery[]): Repeat[] {
  const firsts = new Map<string, WebhookDelivery>();
  const out: Repeat[] = [];
  for (const d of [...deliveries].filter((x) => !x.wrongSignature).sort((a, b) => a.startedAt - b.startedAt)) {
    const first = firsts.get(d.eventId);
    if (first) out.push({ first, repeat: d });
    else firsts.set(d.eventId, d);
  }
  return out;
}

/**
 * The acts of the client after the repeat that repeat a successful act made after the first delivery:
 * the first window runs from the first delivery to the repeat, the second as long from the repeat.
 */
function actedAgain(
  requests: readonly PartnerRequest[],
  { first, repeat }: Repeat,
): Array<{ request: PartnerRequest; act: string }> {
  const span = repeat.startedAt - first.startedAt;
  const job = jobOfRun(requests, repeat.runId);
  const acts = (r: PartnerRequest) => actsOf(r, repeat.runId, job);
  const done = new Set(
    requests
      .filter((r) => r.at >= first.startedAt && r.at < repeat.startedAt && !r.lost && r.status >= 200 && r.status < 300)
      .flatMap(acts),
  );
  return requests
    .filter((r) => r.at >= repeat.startedAt && r.at < repeat.startedAt + span)
    .flatMap((r) => acts(r).flatMap((act) => (done.has(act) ? [{ request: r, act }] : [])));
}

/** Whether the window after the repeat is over (or the session is), so that its absence of acts is final. */
function windowClosed({ first, repeat }: Repeat, ctx: JudgeContext): boolean {
  return ctx.final || ctx.now >= repeat.startedAt + (repeat.startedAt - first.startedAt);
}

export const repeatedEventRule: Rule = {
  id: 'webhooks.repeated-event-id-not-acted-on-again',
  title:
    'A delivery repeating an event_id already delivered is not acted on again (no second report, reveal or run start for it)',
  suite: 'webhooks',
  evidence: 'input',
  unlockedBy: '--webhook-url',
  spec: [S.events],
  hint: 'start a cert-webhook run: its run_completed is delivered twice with one event_id (acknowledge both, act once)',
  judge(traffic, ctx) {
    if (!ctx.webhookRegistered) {
      return {
        state: ctx.final ? 'skipped' : 'pending',
        message: 'no webhook registered: start svc-certify partner with --webhook-url',
        observations: [],
        unlock: '--webhook-url',
      };
    }
    const repeats = repeatsOf(traffic.deliveries);
    const offences: TrafficObservation[] = [];
    for (const pair of repeats) {
      const again = actedAgain(traffic.requests, pair);
      if (again.length === 0) continue;
      const acts = [...new Set(again.map((x) => x.act))].join('; ');
      offences.push({
        message: `${pair.repeat.event} ${pair.repeat.eventId} was delivered again (attempt ${pair.repeat.attempt}), and the client did again what it did after the first delivery: ${acts}. Receivers de-duplicate on event_id ("Delivery is at-least-once")`,
        expected: 'the repeat acknowledged and not acted on',
        received: acts,
        requests: [...new Set(again.map((x) => x.request.id))],
        deliveries: [pair.first, pair.repeat],
      });
    }
    const judged = repeats.filter((p) => windowClosed(p, ctx));
    return ruleVerdict(repeatedEventRule, ctx, {
      offences,
      exercised: judged.length > 0,
      passMessage: `${judged.length} event${judged.length === 1 ? '' : 's'} delivered twice with one event_id; nothing done after the first delivery was done again after the repeat`,
    });
  },
};
