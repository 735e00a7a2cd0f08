// Findings are kept in bounded memory: a file full of `spk_` must not make the scanner grow without
// limit. The first findings of each prefix are kept (in scan order, which is deterministic); the
// rest are counted. Files not scanned within the bounds are kept apart (their own cap), so a
// thousand matches never hide that a file went unread. A finding is made safe to show (keys cut to
// 12 characters) as it is kept: only kept findings ever reach a report.

import type { Finding, SecretPrefix } from './finding.js';
import { MAX_KEPT_FINDINGS } from './limits.js';
import { redactFinding } from './redact.js';

type PerPrefix<T> = Record<SecretPrefix, T>;

export class FindingCollector {
  private readonly kept: PerPrefix<Finding[]> = { spk_: [], sot_: [] };
  private readonly total: PerPrefix<number> = { spk_: 0, sot_: 0 };
  private readonly unread: PerPrefix<Finding[]> = { spk_: [], sot_: [] };
  private readonly unreadTotal: PerPrefix<number> = { spk_: 0, sot_: 0 };

  constructor(private readonly limit = MAX_KEPT_FINDINGS) {}

  add(f: Finding): void {
    const notScanned = f.kind === 'not-scanned';
    const list = (notScanned ? this.unread : this.kept)[f.prefix];
    (notScanned ? this.unreadTotal : this.total)[f.prefix] += 1;
    if (list.length < this.limit) list.push(redactFinding(f));
  }

  /** Kept matches of `prefix` (not the files that went unscanned). */
  findings(prefix: SecretPrefix): readonly Finding[] {
    return this.kept[prefix];
  }

  /** Places that hold `prefix`. */
  count(prefix: SecretPrefix): number {
    return this.total[prefix];
  }

  /** Kept `not-scanned` findings (one per file or part not read within the bounds). */
  notScanned(prefix: SecretPrefix): readonly Finding[] {
    return this.unread[prefix];
  }

  notScannedCount(prefix: SecretPrefix): number {
    return this.unreadTotal[prefix];
  }
}
