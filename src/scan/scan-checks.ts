// The checks of `svc-certify scan`, from one pass over the files: Authentication, rule 7 ("Keys
// and tokens are server-side only. Certification checks frontend bundles and browser traffic for
// the strings `spk_` and `sot_`."), one check per string, failing with its findings as evidence.

import type { CheckDeclaration } from '../runner/check-declaration.js';
import { decideOutcome, outcomeFields } from '../runner/outcome.js';
import { createRegistry } from '../runner/registry.js';
import type { CheckResult, Observation, ScanFinding } from '../runner/results.js';
import type { SpecSection } from '../spec/section-names.js';
import { S } from '../spec/sections.js';
import type { Finding, SecretPrefix } from './finding.js';
import type { ScanOutcome } from './scan-paths.js';
import { ORG_TOKEN, PARTNER_KEY } from '../secret-shapes.js';

export const SCAN_SUITE = 'scan';
/** The sections both checks cite: the rule itself, and the certification the service runs. */
const SCAN_SPEC: SpecSection[] = [S.authentication, S.general];
const SENTENCE =
  'Authentication: "Keys and tokens are server-side only. Certification checks frontend bundles and browser traffic for the strings `spk_` and `sot_`."';
/** Observations repeat the first findings for the reports; results.json `findings` holds them all (up to the collector's cap). */
const OBSERVATION_LIMIT = 50;

/** What the scan judges is what the operator gives it: the files a browser receives. */
const SCANNED_PATHS = 'the paths given to svc-certify scan (bundles, source maps, HAR captures)';

/**
 * A scan check: the shape every command's checks share (runner/check-declaration.ts), judging the
 * findings of one string.
 */
export interface ScanCheck extends CheckDeclaration<SpecSection> {
  /** The string whose findings the check judges. */
  prefix: SecretPrefix;
  /** The finding kind of a whole secret of the spec's format (told apart from the bare string). */
  full: 'partner-key' | 'org-token';
  noun: string;
}

const SCAN_CHECKS: ScanCheck[] = [
  {
    id: 'scan.no-partner-key-string',
    suite: SCAN_SUITE,
    spec: SCAN_SPEC,
    title: `no bundle, source map or traffic holds the string ${PARTNER_KEY.scanned} (partner key)`,
    prefix: PARTNER_KEY.scanned,
    full: 'partner-key',
    noun: 'partner key',
    evidence: 'input',
    unlockedBy: SCANNED_PATHS,
  },
  {
    id: 'scan.no-org-token-string',
    suite: SCAN_SUITE,
    spec: SCAN_SPEC,
    title: `no bundle, source map or traffic holds the string ${ORG_TOKEN.scanned} (org token)`,
    prefix: ORG_TOKEN.scanned,
    full: 'org-token',
    noun: 'org token',
    evidence: 'input',
    unlockedBy: SCANNED_PATHS,
  },
];

/** The scan checks, validated (runner/registry.ts), in the order the command reports them. */
export const SCAN_REGISTRY = createRegistry(SCAN_CHECKS, [SCAN_SUITE], { order: 'as-declared' });

function where(f: Finding): string {
  return `${f.file}:${f.line}:${f.column}${f.location ? ` (${f.location})` : ''}`;
}

function skippedNote(outcome: ScanOutcome): string {
  const { listed, count } = outcome.skipped;
  if (count === 0) return '';
  const more = count > listed.length ? `, … ${count - listed.length} more` : '';
  return `; ${count} FIFO(s), socket(s) or device(s) skipped, not read: ${listed.join(', ')}${more}`;
}

/** A check's observations: a file left unread goes first, so a thousand matches elsewhere cannot push it out of the reports. */
function scanObservations(c: ScanCheck, list: readonly Finding[], unread: readonly Finding[]): Observation[] {
  return [
    ...unread.map((f) => ({
      message: `${where(f)}: ${f.excerpt}`,
      spec: SENTENCE,
      expected: `every file searched for ${c.prefix}`,
      received: f.excerpt,
    })),
    ...list.map((f) => ({
      message: `${where(f)}: ${f.kind === 'prefix' ? `the string ${c.prefix}` : `a full ${c.noun}`} — ${f.excerpt}`,
      spec: SENTENCE,
      expected: `no ${c.prefix} in anything a browser receives`,
      received: f.kind === 'prefix' ? `${c.prefix} (${f.excerpt})` : `a ${c.noun} of the spec's format (${f.excerpt})`,
    })),
  ].slice(0, OBSERVATION_LIMIT);
}

/** The check's own summary: how many places hold the string, how many files were not scanned, or a clean bill. */
function scanMessage(c: ScanCheck, outcome: ScanOutcome, list: readonly Finding[], unread: readonly Finding[]): string {
  const total = outcome.collector.count(c.prefix);
  const unreadTotal = outcome.collector.notScannedCount(c.prefix);
  const full = list.filter((f) => f.kind === c.full).length;
  const mb = (outcome.bytes / (1 << 20)).toFixed(1);
  const parts: string[] = [];
  const [firstFound] = list;
  const [firstUnread] = unread;
  if (total > 0 && firstFound) {
    const more = total > list.length ? ` (the first ${list.length} listed)` : '';
    parts.push(
      `${total} place(s) hold ${c.prefix}${full > 0 ? `, ${full} of them a full ${c.noun}` : ''}${more}; first at ${where(firstFound)}`,
    );
  }
  if (unreadTotal > 0 && firstUnread)
    parts.push(
      `${unreadTotal} file(s) not scanned, so they may hold ${c.prefix}; first ${where(firstUnread)}: ${firstUnread.excerpt}`,
    );
  return (
    (parts.length === 0 ? `no ${c.prefix} in ${outcome.files} file(s), ${mb} MB scanned` : parts.join('; ')) +
    skippedNote(outcome)
  );
}

export function scanCheckResults(
  outcome: ScanOutcome,
  durationMs: number,
): { checks: CheckResult[]; findings: ScanFinding[] } {
  const checks: CheckResult[] = [];
  const findings: ScanFinding[] = [];
  for (const c of SCAN_REGISTRY.checks) {
    const list = outcome.collector.findings(c.prefix);
    const unread = outcome.collector.notScanned(c.prefix);
    for (const f of [...list, ...unread])
      findings.push({
        check: c.id,
        prefix: c.prefix,
        file: f.file,
        line: f.line,
        column: f.column,
        kind: f.kind,
        location: f.location,
        excerpt: f.excerpt,
      });
    const observations = scanObservations(c, list, unread);
    const message = scanMessage(c, outcome, list, unread);
    // The one outcome model (runner/outcome.ts): every file read is one assertion; with no file at all
    // nothing was judged, which is never a clean bill.
    const outcomeOf = decideOutcome({
      declaration: c,
      ending: { kind: 'done' },
      asserted: outcome.files,
      observations,
      ...(outcome.files === 0 && observations.length === 0
        ? {
            skip: {
              kind: 'inconclusive' as const,
              reason: `no file was scanned: the paths hold no regular file${skippedNote(outcome)}`,
            },
          }
        : {}),
    });
    const fields = outcomeFields(outcomeOf);
    checks.push({
      id: c.id,
      title: c.title,
      suite: c.suite,
      spec: c.spec,
      ...fields,
      // The scan's own summary reads better than the first observation.
      message: fields.status === 'skipped' ? fields.message : message,
      durationMs,
      observations,
      exchanges: [],
      evidence: c.evidence,
    });
  }
  return { checks, findings };
}
