import type { Verdict } from './matching.js';

/**
 * Reveal price table, in credits. Applied when a snapshot is taken, never stored with the candidate, so the
 * price a run read quotes is always the table's current answer.
 */
export const PRICE_TABLE = {
  verdict: { strong: 12, good: 8, weak: 4 } satisfies Record<Verdict, number>,
  /** Added by seniority band (years of experience: below 3, 3 to 7, 8 and more). */
  seniority: [0, 2, 4] as const,
  /** Profiles from the paid extended source (`paid_fallback`). */
  extendedSource: 6,
} as const;

export function priceCredits(verdict: Verdict, years: number, source: 'standard' | 'extended'): number {
  const band = years < 3 ? 0 : years < 8 ? 1 : 2;
  return (
    PRICE_TABLE.verdict[verdict] +
    PRICE_TABLE.seniority[band] +
    (source === 'extended' ? PRICE_TABLE.extendedSource : 0)
  );
}
