// The decisions calls of a judgement, read once: each call's items, their actions and its acting
// recruiter, grouped the ways the decision rules look for a later call (by run, by run and recruiter).
// A flood of batches to one run made each rule compare every held body's items with every later call
// (30,000 calls, 2,000 bodies held: not judged after 5 minutes). Built once per judgement (the judge
// hands every rule the same array).

import type { PartnerRequest, Traffic } from '../traffic.js';
import { actionOf, decisionItemsOf, type DecisionItem } from './decision-items.js';
import { canonical } from './retry-chains.js';

export interface DecisionCall {
  r: PartnerRequest;
  /** Its position in `calls`. */
  pos: number;
  items: DecisionItem[];
  /** actionOf of each item. */
  actions: string[];
  /** The acting recruiter, canonical. */
  user: string;
}

export interface DecisionIndex {
  /** Every POST /runs/{run_id}/decisions, in traffic order. */
  calls: DecisionCall[];
  /** Ids ascend along the traffic (the recorder keeps them so): "a later id" is "later in the array". */
  idOrdered: boolean;
}

/** The request's acting_user_external_id as sent (any JSON value; undefined when the body has none). */
export function actingUser(r: PartnerRequest): unknown {
  return r.json !== null && typeof r.json === 'object'
    ? (r.json as { acting_user_external_id?: unknown }).acting_user_external_id
    : undefined;
}

const indexOf = new WeakMap<readonly PartnerRequest[], DecisionIndex>();

export function decisionIndex(traffic: Traffic): DecisionIndex {
  let index = indexOf.get(traffic.requests);
  if (!index) {
    const calls: DecisionCall[] = [];
    let idOrdered = true;
    let lastId = -Infinity;
    for (const r of traffic.requests) {
      if (r.id <= lastId) idOrdered = false;
      lastId = r.id;
      if (r.endpoint !== 'decisions') continue;
      const items = decisionItemsOf(r);
      calls.push({ r, pos: calls.length, items, actions: items.map(actionOf), user: canonical(actingUser(r)) });
    }
    index = { calls, idOrdered };
    indexOf.set(traffic.requests, index);
  }
  return index;
}

/** The run of a call as a key: a call without one (hand-built traffic) matches only another without. */
export const runKey = (r: PartnerRequest): string => (r.runId === undefined ? '-' : `r${r.runId}`);

let unique = 0;

/**
 * A key equal for two values exactly when `===` holds between them as parsed from two different bodies:
 * equal primitives; an object or array is never the same object as one of another body.
 */
export function strictKey(v: unknown): string {
  if (v !== null && typeof v === 'object') return `o${unique++}`;
  return `${typeof v}:${String(v)}`;
}

/** A key equal for two occurred_at values exactly when sameInstant holds or they are `===`. */
export function instantKey(v: unknown): string {
  if (typeof v === 'string') {
    const t = Date.parse(v);
    return Number.isFinite(t) ? `t${t}` : `s${v}`;
  }
  return strictKey(v);
}

/** "Later": a greater id (the later-by-id calls of a request), or a greater position among the calls. */
export type After = { id: number; idOrdered: boolean } | { pos: number };

/** A list of calls in traffic order with, from each position on, the least and the greatest arrival. */
export class CallList<T extends { call: DecisionCall }> {
  readonly entries: T[] = [];
  private minAt: number[] = [];
  private maxAt: number[] = [];

  push(e: T): void {
    this.entries.push(e);
  }

  /** Call once all entries are in. */
  seal(): this {
    const n = this.entries.length;
    this.minAt = new Array<number>(n);
    this.maxAt = new Array<number>(n);
    for (let q = n - 1; q >= 0; q--) {
      const at = this.entries[q]!.call.r.at;
      this.minAt[q] = q === n - 1 ? at : Math.min(at, this.minAt[q + 1]!);
      this.maxAt[q] = q === n - 1 ? at : Math.max(at, this.maxAt[q + 1]!);
    }
    return this;
  }

  /** The first entry that may come after `after`: by position, or by id (searched only when ids ascend). */
  private firstAfter(after: After): number {
    if ('id' in after && !after.idOrdered) return 0;
    const later = (c: DecisionCall): boolean => ('id' in after ? c.r.id > after.id : c.pos > after.pos);
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (later(this.entries[mid]!.call)) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /**
   * The entries after `after` that arrived within `within` ms of `since`, or at `atLeast` or
   * after, in order; the scan stops where no later entry can.
   */
  *later(after: After, bound: { since: number; within: number } | { atLeast: number }): Generator<T> {
    const ok = (at: number): boolean => ('since' in bound ? at - bound.since <= bound.within : at >= bound.atLeast);
    for (let q = this.firstAfter(after); q < this.entries.length; q++) {
      if (!ok('since' in bound ? this.minAt[q]! : this.maxAt[q]!)) return;
      const e = this.entries[q]!;
      if (('id' in after ? e.call.r.id > after.id : e.call.pos > after.pos) && ok(e.call.r.at)) yield e;
    }
  }
}

/** Adds `e` to the list under `key`, creating it. */
export function listIn<T extends { call: DecisionCall }>(map: Map<string, CallList<T>>, key: string, e: T): void {
  let list = map.get(key);
  if (!list) {
    list = new CallList<T>();
    map.set(key, list);
  }
  list.push(e);
}
