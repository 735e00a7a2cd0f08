// The large answers read last, held strongly; any other is read (and parsed) again when a check reads
// it. A WeakRef would do the same without a bound, but V8 keeps every WeakRef target alive to the end
// of the current job: when a real run completes, twenty checks resume in one job and each judges every
// read of it, so every read's text and parsed JSON (40 MB each against a hostile target) stayed alive
// at once (1.2 GB). Held here, at most LARGE_ANSWERS_KEPT of each are, plus what a check itself holds.

import { LARGE_ANSWERS_KEPT } from './evidence-limits.js';

export class RecentlyRead<V> {
  private readonly kept = new Map<object, V>();

  constructor(private readonly capacity = LARGE_ANSWERS_KEPT) {}

  /** The value kept for `key`, or `load()`'s, now kept as the most recent. */
  get(key: object, load: () => V): V {
    const known = this.kept.get(key);
    if (known !== undefined) {
      this.kept.delete(key);
      this.kept.set(key, known);
      return known;
    }
    const loaded = load();
    this.put(key, loaded);
    return loaded;
  }

  put(key: object, value: V): void {
    this.kept.delete(key);
    this.kept.set(key, value);
    for (const oldest of this.kept.keys()) {
      if (this.kept.size <= this.capacity) break;
      this.kept.delete(oldest);
    }
  }
}
