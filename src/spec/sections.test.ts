// The generated list and the heading rule are tested beside the suites' registry (suites/index.test.ts).

import { describe, expect, it } from 'vitest';
import { S } from './sections.js';
import { loadSpec } from './spec-file.js';

describe('the spec section table', () => {
  it('names only headings of the spec copy the package ships, each once', () => {
    const headings = new Set(loadSpec().sections);
    for (const [name, heading] of Object.entries(S)) expect(headings.has(heading), `S.${name}`).toBe(true);
    expect(new Set(Object.values(S)).size).toBe(Object.values(S).length);
  });
});
