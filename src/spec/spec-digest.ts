// The spec a result is judged against, as results.json names it: its title and the digest of the copy.

import { loadSpec } from './spec-file.js';

export interface SpecDigest {
  title: string;
  sha256: string;
}

export function specDigest(): SpecDigest {
  const spec = loadSpec();
  return { title: spec.title, sha256: spec.sha256 };
}

/** For a certification that never began: the spec copy may be what is missing; the digest is then left empty rather than hiding the reason. */
export function specDigestIfReadable(): SpecDigest {
  try {
    return specDigest();
  } catch {
    return { title: 'Partner Candidate-Matching API (v1) Specification', sha256: '' };
  }
}
