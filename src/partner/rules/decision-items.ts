// The decisions of a recorded POST /runs/{run_id}/decisions, read the one way the decision rules share:
// each item's candidate, decision, occurred_at, reason and note, and when two occurred_at name one instant.

import type { PartnerRequest } from '../traffic.js';
import { canonical } from './retry-chains.js';

export interface DecisionItem {
  candidate: string;
  decision: unknown;
  occurredAt: unknown;
  rejectReason: unknown;
  note: unknown;
}

export function decisionItemsOf(r: PartnerRequest): DecisionItem[] {
  const list =
    r.json !== null && typeof r.json === 'object' ? (r.json as { decisions?: unknown }).decisions : undefined;
  if (!Array.isArray(list)) return [];
  return list.flatMap((d) => {
    if (d === null || typeof d !== 'object') return [];
    const o = d as Record<string, unknown>;
    return [
      {
        candidate: canonical(o.candidate_id),
        decision: o.decision,
        occurredAt: o.occurred_at,
        rejectReason: o.reject_reason ?? null,
        note: o.note ?? null,
      },
    ];
  });
}

/** The item as a whole (decision, reason, note), to tell a later action from a repeat. */
export function actionOf(item: DecisionItem): string {
  return canonical({ decision: item.decision, reject_reason: item.rejectReason, note: item.note });
}

/** Two date-time strings naming the same instant (RFC 3339 allows several spellings of one). */
export function sameInstant(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  const [ta, tb] = [Date.parse(a), Date.parse(b)];
  return Number.isFinite(ta) && ta === tb;
}

/** An answer that may not have stored the call: a 5xx, a 429 or a lost answer. */
export const failedAnswer = (r: PartnerRequest): boolean => r.lost || r.status >= 500 || r.status === 429;
