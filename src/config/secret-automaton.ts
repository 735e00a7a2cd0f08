// One Aho–Corasick automaton over a set of fixed strings: the redactor's literal search. A secret is
// data, never syntax: no regular expression is built from it, so no secret (a 10,000-character token,
// thousands of them) can make the search throw or take more than a constant number of steps per
// character of text. The trie lives in flat typed arrays (first child, next sibling), 28 bytes per
// node, so 2,000 secrets in all their encoded forms fit in a few tens of megabytes.

/** Steps taken by every automaton built and run in this process: what the linearity test measures. */
export const automatonSteps = { count: 0 };

const ROOT = 0;
const NONE = -1;

export interface Automaton {
  /** The state after reading `code` in `state`. */
  step(state: number, code: number): number;
  /** The index (in the patterns given) of the longest pattern ending in `state`, or -1. */
  longest(state: number): number;
  /** The length of the pattern `index`. */
  lengthOf(index: number): number;
  /** How many characters the text's last characters share with the start of some pattern, in `state`. */
  depth(state: number): number;
  /** A pattern that starts with those characters. */
  through(state: number): number;
  readonly maxLength: number;
}

/** Builds the automaton of `patterns` (each already normalised; an empty one is ignored) in time linear in their total length. */
export function buildAutomaton(patterns: readonly string[]): Automaton {
  // A trie has at most one node per pattern character, plus the root.
  const total = patterns.reduce((n, p) => n + p.length, 1);
  const child = new Int32Array(total).fill(NONE);
  const sibling = new Int32Array(total).fill(NONE);
  const label = new Int32Array(total);
  const terminal = new Int32Array(total).fill(NONE);
  const depthOf = new Int32Array(total);
  const throughOf = new Int32Array(total).fill(NONE);
  let size = 1;

  function find(node: number, code: number): number {
    for (let c = child[node] ?? NONE; c !== NONE; c = sibling[c] ?? NONE) {
      automatonSteps.count++;
      if (label[c] === code) return c;
    }
    return NONE;
  }

  const lengths = patterns.map((p) => p.length);
  let maxLength = 0;
  for (const [index, pattern] of patterns.entries()) {
    if (pattern.length === 0) continue;
    maxLength = Math.max(maxLength, pattern.length);
    let node = ROOT;
    for (let i = 0; i < pattern.length; i++) {
      const code = pattern.charCodeAt(i);
      let next = find(node, code);
      if (next === NONE) {
        next = size++;
        label[next] = code;
        depthOf[next] = i + 1;
        throughOf[next] = index;
        sibling[next] = child[node] ?? NONE;
        child[node] = next;
      }
      node = next;
    }
    // The first pattern of a given text keeps the node.
    if (terminal[node] === NONE) terminal[node] = index;
  }

  // Failure links and, per node, the longest pattern that ends there (its own, or its failure's), breadth first.
  const fail = new Int32Array(size);
  const longest = new Int32Array(size);
  longest[ROOT] = NONE;
  const queue = new Int32Array(size);
  let head = 0;
  let tail = 0;
  for (let c = child[ROOT] ?? NONE; c !== NONE; c = sibling[c] ?? NONE) {
    fail[c] = ROOT;
    longest[c] = terminal[c] ?? NONE;
    queue[tail++] = c;
  }
  while (head < tail) {
    const node = queue[head++] ?? ROOT;
    for (let c = child[node] ?? NONE; c !== NONE; c = sibling[c] ?? NONE) {
      const code = label[c] ?? 0;
      let f = fail[node] ?? ROOT;
      let target = find(f, code);
      while (target === NONE && f !== ROOT) {
        f = fail[f] ?? ROOT;
        target = find(f, code);
      }
      fail[c] = target === NONE || target === c ? ROOT : target;
      const own = terminal[c] ?? NONE;
      longest[c] = own !== NONE ? own : (longest[fail[c] ?? ROOT] ?? NONE);
      queue[tail++] = c;
    }
  }

  // The root has a child for nearly every character a form starts with (the base64 alphabet): most
  // characters of a text lead back to it, so its moves are a table, not a list to walk.
  const rootMoves = new Int32Array(128);
  for (let c = child[ROOT] ?? NONE; c !== NONE; c = sibling[c] ?? NONE) {
    const code = label[c] ?? 0;
    if (code < 128) rootMoves[code] = c;
  }

  return {
    step(state, code) {
      let s = state;
      for (;;) {
        if (s === ROOT && code < 128) {
          automatonSteps.count++;
          return rootMoves[code] ?? ROOT;
        }
        const next = find(s, code);
        if (next !== NONE) return next;
        if (s === ROOT) return ROOT;
        automatonSteps.count++;
        s = fail[s] ?? ROOT;
      }
    },
    longest: (state) => longest[state] ?? NONE,
    lengthOf: (index) => lengths[index] ?? 0,
    depth: (state) => depthOf[state] ?? 0,
    through: (state) => throughOf[state] ?? NONE,
    maxLength,
  };
}
