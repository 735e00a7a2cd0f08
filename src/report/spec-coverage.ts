// The spec coverage map: every section of the spec in its order, with the checks citing it, or why no
// check does. One builder for `svc-certify list --by-spec` (the catalogue, checks as declared) and for
// report.html and summary.md (the checks of a certification with their outcomes), so which check
// covers which section is worked out in one place.

export interface CoverageRow<C> {
  section: string;
  /**
   * false: a check cites it, but the spec has no such heading (a results.json written against another
   * copy of the spec, or a typo the section-name table did not catch); such rows come after the spec's.
   */
  inSpec: boolean;
  /** The checks citing the section, in the order given (each once, however often it cites it). */
  checks: C[];
  /** A section of the spec no check cites: why, when the reason is written down. */
  reason?: string;
}

/**
 * Rows for every section of `sections` (each once, in order), then a row for each section that a
 * check cites but `sections` lacks (in order of first citation). `reasonOf` gives a section without a
 * check its reason, or undefined when none is written down.
 */
export function specCoverage<C extends { readonly spec: readonly string[] }>(
  sections: readonly string[],
  checks: readonly C[],
  reasonOf: (section: string) => string | undefined,
): Array<CoverageRow<C>> {
  const citing = new Map<string, C[]>();
  for (const check of checks)
    for (const section of new Set(check.spec)) {
      const list = citing.get(section);
      if (list) list.push(check);
      else citing.set(section, [check]);
    }
  const known = new Set(sections);
  const rows: Array<CoverageRow<C>> = [...known].map((section) => {
    const cited = citing.get(section) ?? [];
    const reason = cited.length === 0 ? reasonOf(section) : undefined;
    return { section, inSpec: true, checks: cited, ...(reason === undefined ? {} : { reason }) };
  });
  for (const [section, cited] of citing) if (!known.has(section)) rows.push({ section, inSpec: false, checks: cited });
  return rows;
}

/** How many of the spec's sections at least one check cites. */
export function coveredCount(rows: ReadonlyArray<CoverageRow<unknown>>): { covered: number; sections: number } {
  const inSpec = rows.filter((r) => r.inSpec);
  return { covered: inSpec.filter((r) => r.checks.length > 0).length, sections: inSpec.length };
}
