// The head of a check a factory builds from a row of its table: the row's id and title, the suite,
// and the row's own evidence declaration, in the order every check declares them.

import type { CheckDefinition } from '../../src/api-setup/check.js';
import { declarationOf, type EvidenceDeclaration } from '../../src/runner/evidence.js';

export function checkHeadOf(
  suite: string,
  row: EvidenceDeclaration & Pick<CheckDefinition, 'id' | 'title'>,
): Pick<CheckDefinition, 'id' | 'title' | 'suite'> & EvidenceDeclaration {
  return { id: row.id, title: row.title, suite, ...declarationOf(row) };
}
