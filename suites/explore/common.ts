// What the exploration's endpoints and properties share: the first synthetic candidate id of every
// fixture run.

/** The first synthetic id of every fixture; decisions may name any candidate the fixture will list. */
export const FIRST_FIXTURE_CANDIDATE = 990000000001n;
