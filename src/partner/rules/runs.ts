// Facts about runs the rules share: which reads belong to which run, what each read said, and when a
// run began (its start's answer, or the first read when the start was not seen).

import type { PartnerRequest, Traffic, WebhookDelivery } from '../traffic.js';

export interface RunFacts {
  runId: string;
  /** Epoch ms the run began, as far as the traffic shows. */
  startedAt: number;
  /** The run's start (its 202) is in the traffic: `startedAt` is when it was answered, not a first read. */
  startSeen: boolean;
  /** Fixture name, from `sandbox.fixture` of the start or a read. */
  fixture?: string;
  /** Every GET of the run, in arrival order. */
  reads: PartnerRequest[];
}

function record(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function fixtureOf(body: unknown): string | undefined {
  const f = record(record(body)?.sandbox)?.fixture;
  return typeof f === 'string' ? f : undefined;
}

/** The status a successful read returned, or undefined for any other answer. */
export function readStatus(r: PartnerRequest): string | undefined {
  if (r.status !== 200) return undefined;
  const s = record(r.responseJson)?.status;
  return typeof s === 'string' ? s : undefined;
}

export function isTerminal(status: string | undefined): boolean {
  return status === 'completed' || status === 'failed';
}

/** Notice codes of a successful read. */
export function noticeCodes(r: PartnerRequest): string[] {
  if (r.status !== 200) return [];
  const notices = record(r.responseJson)?.notices;
  if (!Array.isArray(notices)) return [];
  return notices.map((n) => record(n)?.code).filter((c): c is string => typeof c === 'string');
}

const factsOf = new WeakMap<readonly PartnerRequest[], ReadonlyMap<string, RunFacts>>();

/**
 * The runs of the traffic, found once per judgement (the judge hands every rule the same array): six
 * rules read them, and a flood of reads of distinct runs made each of them walk it again.
 */
export function runFacts(traffic: Traffic): ReadonlyMap<string, RunFacts> {
  let runs = factsOf.get(traffic.requests);
  if (!runs) {
    runs = findRuns(traffic);
    factsOf.set(traffic.requests, runs);
  }
  return runs;
}

function findRuns(traffic: Traffic): Map<string, RunFacts> {
  const runs = new Map<string, RunFacts>();
  for (const r of traffic.requests) {
    if (r.endpoint === 'runs-start' && r.status === 202) {
      const id = record(r.responseJson)?.run_id;
      if (typeof id === 'string' && !runs.has(id)) {
        const fixture = fixtureOf(r.responseJson);
        runs.set(id, {
          runId: id,
          startedAt: r.answeredAt,
          startSeen: true,
          reads: [],
          ...(fixture ? { fixture } : {}),
        });
      }
    }
    if (r.endpoint === 'runs-read' && r.runId !== undefined) {
      let run = runs.get(r.runId);
      if (!run) {
        run = { runId: r.runId, startedAt: r.at, startSeen: false, reads: [] };
        runs.set(r.runId, run);
      }
      run.reads.push(r);
      run.fixture ??= fixtureOf(r.responseJson);
    }
  }
  return runs;
}

/**
 * A read of a run made this long (spec time) after a webhook delivery for the run began is that delivery's
 * prompt being followed (Events rule 6: the run read is the authority), not a poll.
 */
export const PROMPTED_BY_WEBHOOK_MS = 5_000;

/** The webhook delivery for the run of `read` that began before it and ended at most `promptMs` before it. */
export function promptingDelivery(
  traffic: Traffic,
  read: PartnerRequest,
  promptMs: number,
): WebhookDelivery | undefined {
  return traffic.deliveries.find(
    (d) =>
      d.runId === read.runId && read.at >= d.startedAt && read.at - Math.max(d.startedAt, d.answeredAt) <= promptMs,
  );
}

/**
 * Why `read` is no poll, if it is not: a webhook delivery for its run came just before it, or the client's
 * own action on the run (a reveal, a decisions call) came after the read before it (`previous`): a user
 * refreshing what they just did. Polling rules judge only the reads left.
 */
export function promptedRead(
  traffic: Traffic,
  read: PartnerRequest,
  previous: PartnerRequest | undefined,
  promptMs: number,
): string | undefined {
  const delivery = promptingDelivery(traffic, read, promptMs);
  if (delivery) return `prompted by the ${delivery.event} delivery`;
  if (previous === undefined) return undefined;
  const action = actionsOn(traffic)
    .get(read.runId ?? '')
    ?.find((a) => a.id > previous.id && a.id < read.id);
  return action ? `a refresh after the client's ${action.endpoint}` : undefined;
}

const actionsOf = new WeakMap<readonly PartnerRequest[], Map<string, PartnerRequest[]>>();

/** The reveals and decisions calls of each run, in arrival order (built once per judgement). */
function actionsOn(traffic: Traffic): Map<string, PartnerRequest[]> {
  let byRun = actionsOf.get(traffic.requests);
  if (!byRun) {
    byRun = new Map();
    for (const r of traffic.requests) {
      if ((r.endpoint !== 'reveal' && r.endpoint !== 'decisions') || r.runId === undefined) continue;
      const list = byRun.get(r.runId);
      if (list) list.push(r);
      else byRun.set(r.runId, [r]);
    }
    actionsOf.set(traffic.requests, byRun);
  }
  return byRun;
}
