// The spec's copy in the package: its title, its digest, and its section references as checks cite
// them: "Heading" for a `##` heading and "Heading › Subheading" for a `###` under it, exactly as
// written in the spec.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';

const SECTION_SEPARATOR = ' › ';

export function parseSpecSections(markdown: string): string[] {
  const out: string[] = [];
  let top: string | undefined;
  let inFence = false;
  for (const line of markdown.split(/\r?\n/)) {
    if (line.startsWith('```')) inFence = !inFence;
    if (inFence) continue;
    const h2 = /^##\s+(.+?)\s*$/.exec(line);
    const h3 = /^###\s+(.+?)\s*$/.exec(line);
    if (h3) {
      out.push(top ? `${top}${SECTION_SEPARATOR}${h3[1]}` : h3[1]!);
    } else if (h2) {
      top = h2[1]!;
      out.push(top);
    }
  }
  return out;
}

export interface SpecInfo {
  title: string;
  sha256: string;
  sections: string[];
}

let cached: SpecInfo | undefined;

/** The copy of the spec the package ships and every report cites. */
function specPath(): string {
  return join(packageRoot(), 'spec', 'partner-api-v1.md');
}

/** The copy of the spec shipped in the package: its title, digest and section references. */
export function loadSpec(): SpecInfo {
  if (cached) return cached;
  const text = readFileSync(specPath(), 'utf8');
  const title = /^#\s+(.+?)\s*$/m.exec(text)?.[1] ?? 'Partner Candidate-Matching API (v1) Specification';
  cached = { title, sha256: createHash('sha256').update(text).digest('hex'), sections: parseSpecSections(text) };
  return cached;
}
