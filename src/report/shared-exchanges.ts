// results.json stores an exchange once. A check that waited for a shared setup step (the organization,
// a recruiter, the real run) carries copies of the same exchanges: in a clean run 831 of 1,492 records
// were copies. A passed or skipped check's exchange equal to one written earlier in the file is written
// as {"sameAs": {"check": i, "exchange": j}} (positions in checks[] and in that check's exchanges[]);
// reading the file puts the exchange back, shared (the same object, never a copy: a crafted file of
// 2 MB with 5,000 references to a 1 MiB body would otherwise take 5 GB), so every report rendered from
// results.json is the one rendered from the certification itself. Failed, warning and error checks keep theirs in full: they are read
// one by one, by people and by tools.

import type { CheckResult, CheckExchange, RunResult } from '../runner/results.js';

interface ExchangeRef {
  sameAs: { check: number; exchange: number };
}

const REFERRING: ReadonlySet<CheckResult['status']> = new Set(['passed', 'skipped']);

function isRef(value: unknown): value is ExchangeRef {
  return typeof value === 'object' && value !== null && 'sameAs' in value;
}

type CheckWithRefs = Omit<CheckResult, 'exchanges'> & { exchanges: Array<CheckExchange | ExchangeRef> };

/** The checks with each repeated exchange of a passed or skipped check replaced by a reference to its first copy. */
export function referToSharedExchanges(
  checks: readonly CheckResult[],
  key: (exchange: CheckExchange) => unknown,
): CheckWithRefs[] {
  const refer = exchangeReferrer(key);
  return checks.map((check) => refer(check));
}

/**
 * referToSharedExchanges a check at a time, for checks written one after another (a dossier written
 * part by part): each call is the next check of the file, and only the keys of first copies are kept.
 */
export function exchangeReferrer(key: (exchange: CheckExchange) => unknown): (check: CheckResult) => CheckWithRefs {
  const first = new Map<unknown, ExchangeRef['sameAs']>();
  let c = -1;
  return (check) => {
    c++;
    return {
      ...check,
      exchanges: check.exchanges.map((exchange, e) => {
        const k = key(exchange);
        const seen = first.get(k);
        if (seen && REFERRING.has(check.status)) return { sameAs: seen };
        if (!seen) first.set(k, { check: c, exchange: e });
        return exchange;
      }),
    };
  };
}

/**
 * A results.json's checks with every reference replaced by the exchange it names (shared, not copied:
 * nothing downstream changes an exchange read from a file); a reference to anything but an earlier
 * exchange, or in a check that did not pass or skip, throws (the file was not written by svc-certify).
 */
export function resolveSharedExchanges(result: RunResult): RunResult {
  const resolved: CheckResult[] = [];
  for (const [c, check] of result.checks.entries()) {
    const exchanges: CheckExchange[] = [];
    for (const [e, exchange] of check.exchanges.entries()) {
      if (!isRef(exchange)) {
        exchanges.push(exchange);
        continue;
      }
      const { check: at, exchange: index } = exchange.sameAs;
      if (!REFERRING.has(check.status)) {
        throw new Error(`checks[${c}] (${check.status}) holds a reference; only passed and skipped checks refer`);
      }
      // An earlier check's exchange, or an earlier one of this check.
      const target = at < c ? resolved[at]?.exchanges[index] : at === c && index < e ? exchanges[index] : undefined;
      if (!target) {
        throw new Error(
          `checks[${c}].exchanges[${e}] refers to checks[${at}].exchanges[${index}], which is no earlier exchange`,
        );
      }
      exchanges.push(target);
    }
    resolved.push({ ...check, exchanges });
  }
  return { ...result, checks: resolved };
}
