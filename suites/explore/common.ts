// What the exploration shares: the suite name and the fixture run it explores on.

/** The first synthetic id of every fixture; decisions may name any candidate the fixture will list. */
export const FIRST_FIXTURE_CANDIDATE = 990000000001n;
