// What every check of every certifying command declares, whatever it judges: run's checks (a target's
// answers), partner rules (the partner's recorded traffic), receiver checks (a webhook endpoint's answers
// to deliveries) and scan checks (the findings in files a browser receives). One shape, so one registry
// (runner/registry.ts) validates all four and one catalogue (`svc-certify list`) reads them alike; each
// command adds only the input its checks judge.

import type { EvidenceDeclaration } from './evidence.js';

/**
 * `Section` is how the command names the sections of the spec it enforces (the API's: its typed section
 * names, so a typo does not compile); the engine only keeps them.
 */
export interface CheckDeclaration<Section extends string = string> extends EvidenceDeclaration {
  /** Dotted, stable, says the property asserted: `<suite>.<property>`, e.g. "runs-start.rejects-fourth-must". */
  id: string;
  title: string;
  /** The suite the id starts with; one of its command's suites. */
  suite: string;
  /** Spec sections enforced, as "Section › Subsection" headings of the spec. */
  spec: Section[];
  /** Spec guidance, not a duty: it can only warn, and its skip never makes the verdict incomplete. */
  advisory?: true;
}
