// Findings are kept in bounded memory: a file full of `spk_` must not make the scanner grow without
// limit. The first findings of each prefix are kept (in scan order, which is deterministic); the
// rest are counted.

import type { Finding, SecretPrefix } from './finding.js';

const DEFAULT_FINDING_LIMIT = 1000;

export class FindingCollector {
  private readonly kept: Record<SecretPrefix, Finding[]> = { spk_: [], sot_: [] };
  private readonly total: Record<SecretPrefix, number> = { spk_: 0, sot_: 0 };

  constructor(private readonly limit = DEFAULT_FINDING_LIMIT) {}

  add(f: Finding): void {
    this.total[f.prefix] += 1;
    if (this.kept[f.prefix].length < this.limit) this.kept[f.prefix].push(f);
  }

  findings(prefix: SecretPrefix): readonly Finding[] {
    return this.kept[prefix];
  }

  count(prefix: SecretPrefix): number {
    return this.total[prefix];
  }
}
