// `svc-certify list`: the checks (id, title, spec sections), and with --by-spec the traceability
// matrix from every section of the spec to the checks citing it, or the reason none does.

import { ConfigError } from '../config/config-error.js';
import { createRegistry } from '../runner/registry.js';
import { loadSpec } from '../runner/spec-sections.js';
import { ALL_CHECKS, SUITE_ORDER, uncoveredReason } from '../../suites/index.js';
import type { CheckDefinition } from '../runner/check.js';

export interface ListFlags {
  suite?: string[];
  grep?: string;
  bySpec?: boolean;
}

export function listCommand(flags: ListFlags, out: (line: string) => void): number {
  const suites = (flags.suite ?? []).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean);
  for (const s of suites) {
    if (!SUITE_ORDER.includes(s)) throw new ConfigError(`--suite: unknown suite "${s}"; choose from ${SUITE_ORDER.join(', ')}`);
  }
  const registry = createRegistry(ALL_CHECKS, SUITE_ORDER);
  const checks = registry.select({ suites, grep: flags.grep });
  // The same selection `run` would refuse is refused here too, with the same exit code.
  if (checks.length === 0) {
    const by = [suites.length ? `--suite ${suites.join(',')}` : '', flags.grep ? `--grep "${flags.grep}"` : ''].filter(Boolean).join(' ');
    throw new ConfigError(`the selection (${by}) matches no check; see: svc-certify list`);
  }
  if (flags.bySpec) {
    for (const line of bySpecLines(checks, loadSpec().sections)) out(line);
    return 0;
  }
  let suite: string | undefined;
  for (const c of checks) {
    if (c.suite !== suite) {
      if (suite !== undefined) out('');
      suite = c.suite;
      out(`${suite}`);
    }
    out(`  ${c.id}`);
    out(`      ${c.title}`);
    out(`      spec: ${c.spec.join('; ')}${c.needs?.length ? `   needs: ${c.needs.join(', ')}` : ''}`);
  }
  out('');
  out(`${checks.length} check${checks.length === 1 ? '' : 's'}`);
  return 0;
}

/** Every section in spec order with the checks citing it; a section without one gives its reason. */
function bySpecLines(checks: readonly CheckDefinition[], sections: readonly string[]): string[] {
  const citing = new Map<string, string[]>();
  for (const c of checks) for (const ref of c.spec) citing.set(ref, [...(citing.get(ref) ?? []), c.id]);
  const lines: string[] = [];
  let covered = 0;
  for (const section of sections) {
    const ids = citing.get(section) ?? [];
    lines.push(section);
    if (ids.length === 0) lines.push(`    (no check: ${uncoveredReason(section)})`);
    else {
      covered += 1;
      for (const id of ids) lines.push(`    ${id}`);
    }
  }
  const unknown = [...citing.keys()].filter((ref) => !sections.includes(ref));
  for (const ref of unknown) lines.push(`${ref}  (cited, but no such section in the spec: ${citing.get(ref)!.join(', ')})`);
  lines.push('');
  lines.push(`${covered} of ${sections.length} sections cited by at least one check`);
  return lines;
}
