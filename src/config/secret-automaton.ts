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

/** The trie of the patterns in flat arrays: node i's first child, next sibling, character, and so on. */
interface Trie {
  child: Int32Array;
  sibling: Int32Array;
  label: Int32Array;
  /** The first pattern that ends at a node, or NONE. */
  terminal: Int32Array;
  depthOf: Int32Array;
  /** A pattern that passes through a node. */
  throughOf: Int32Array;
  size: number;
  maxLength: number;
}

/** The child of `node` reached by `code`, or NONE; each sibling looked at is a step. */
function childWith(t: Trie, node: number, code: number): number {
  for (let c = t.child[node] ?? NONE; c !== NONE; c = t.sibling[c] ?? NONE) {
    automatonSteps.count++;
    if (t.label[c] === code) return c;
  }
  return NONE;
}

function buildTrie(patterns: readonly string[]): Trie {
  // A trie has at most one node per pattern character, plus the root.
  const total = patterns.reduce((n, p) => n + p.length, 1);
  const t: Trie = {
    child: new Int32Array(total).fill(NONE),
    sibling: new Int32Array(total).fill(NONE),
    label: new Int32Array(total),
    terminal: new Int32Array(total).fill(NONE),
    depthOf: new Int32Array(total),
    throughOf: new Int32Array(total).fill(NONE),
    size: 1,
    maxLength: 0,
  };
  for (const [index, pattern] of patterns.entries()) {
    if (pattern.length === 0) continue;
    t.maxLength = Math.max(t.maxLength, pattern.length);
    let node = ROOT;
    for (let i = 0; i < pattern.length; i++) {
      const code = pattern.charCodeAt(i);
      let next = childWith(t, node, code);
      if (next === NONE) {
        next = t.size++;
        t.label[next] = code;
        t.depthOf[next] = i + 1;
        t.throughOf[next] = index;
        t.sibling[next] = t.child[node] ?? NONE;
        t.child[node] = next;
      }
      node = next;
    }
    // The first pattern of a given text keeps the node.
    if (t.terminal[node] === NONE) t.terminal[node] = index;
  }
  return t;
}

/** Failure links and, per node, the longest pattern that ends there (its own, or its failure's), breadth first. */
function failureLinks(t: Trie): { fail: Int32Array; longest: Int32Array } {
  const { child, sibling, label, terminal } = t;
  const fail = new Int32Array(t.size);
  const longest = new Int32Array(t.size);
  longest[ROOT] = NONE;
  const queue = new Int32Array(t.size);
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
      let target = childWith(t, f, code);
      while (target === NONE && f !== ROOT) {
        f = fail[f] ?? ROOT;
        target = childWith(t, f, code);
      }
      fail[c] = target === NONE || target === c ? ROOT : target;
      const own = terminal[c] ?? NONE;
      longest[c] = own !== NONE ? own : (longest[fail[c] ?? ROOT] ?? NONE);
      queue[tail++] = c;
    }
  }
  return { fail, longest };
}

/**
 * The root has a child for nearly every character a form starts with (the base64 alphabet): most
 * characters of a text lead back to it, so its moves are a table, not a list to walk.
 */
function rootMovesOf({ child, sibling, label }: Trie): Int32Array {
  const rootMoves = new Int32Array(128);
  for (let c = child[ROOT] ?? NONE; c !== NONE; c = sibling[c] ?? NONE) {
    const code = label[c] ?? 0;
    if (code < 128) rootMoves[code] = c;
  }
  return rootMoves;
}

/** Builds the automaton of `patterns` (each already normalised; an empty one is ignored) in time linear in their total length. */
export function buildAutomaton(patterns: readonly string[]): Automaton {
  const trie = buildTrie(patterns);
  const { fail, longest } = failureLinks(trie);
  const rootMoves = rootMovesOf(trie);
  const { child, sibling, label, depthOf, throughOf } = trie;
  const lengths = patterns.map((p) => p.length);

  // The text's hot loop: the arrays as locals, not looked up on the trie at each character.
  function find(node: number, code: number): number {
    for (let c = child[node] ?? NONE; c !== NONE; c = sibling[c] ?? NONE) {
      automatonSteps.count++;
      if (label[c] === code) return c;
    }
    return NONE;
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
    maxLength: trie.maxLength,
  };
}
