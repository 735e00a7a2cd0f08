// V8 sizes its old space from the machine (about 4 GB here) and collects lazily: a run that parses
// answers of millions of items keeps garbage it no longer reaches until the heap is near that size,
// although what it holds fits in a few hundred MB. Past MEMORY_VALVE_RSS_BYTES of RSS, a full collection
// runs after a large answer is done with and before one is parsed (src/http/answer.ts), so the peak
// follows what is held, not what was once parsed. Only a target that sends large answers ever opens
// the valve.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Past this RSS a full collection comes before each large parse and after each large answer (the hostile matrix's bound is 512 MB). */
const MEMORY_VALVE_RSS_BYTES = 256 * 1024 * 1024;

let collect: (() => void) | undefined;

function collector(): () => void {
  if (!collect) {
    // `gc` exists only with --expose-gc; a flag set at run time reaches new contexts.
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    collect = typeof gc === 'function' ? () => void gc() : () => undefined;
  }
  return collect;
}

/** A full collection now. */
export function collectGarbage(): void {
  collector()();
}

/** After a large answer: a full collection when the process holds more than the valve allows. */
export function releaseMemory(): void {
  if (process.memoryUsage.rss() > MEMORY_VALVE_RSS_BYTES) collectGarbage();
}
