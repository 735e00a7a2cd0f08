import { describe, expect, it } from 'vitest';
import { pacedBudget } from './paced-budget.js';
import { CATALOGUE_REQUESTS, defaultExploreRequests } from './explore-defaults.js';

describe('defaultExploreRequests', () => {
  it('is what four paced windows hold beyond the catalogue: 72 at the spec rate of 120 a minute', () => {
    expect(pacedBudget(120)).toBe(108);
    expect(defaultExploreRequests(120)).toBe(108 * 4 - CATALOGUE_REQUESTS);
    expect(defaultExploreRequests(120)).toBe(72);
  });

  it('is none where the catalogue alone fills the windows, and at most 300 at a high agreed rate', () => {
    expect(defaultExploreRequests(101)).toBe(0);
    expect(defaultExploreRequests(10)).toBe(0);
    expect(defaultExploreRequests(102)).toBe(4);
    expect(defaultExploreRequests(183)).toBe(296);
    expect(defaultExploreRequests(184)).toBe(300);
    expect(defaultExploreRequests(100_000)).toBe(300);
  });
});
