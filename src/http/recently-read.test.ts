import { describe, expect, it } from 'vitest';
import { RecentlyRead } from './recently-read.js';

describe('RecentlyRead', () => {
  it('keeps the last `capacity` values read and loads any other again', () => {
    const loads: string[] = [];
    const kept = new RecentlyRead<string>(2);
    const [a, b, c] = [{}, {}, {}];
    const read = (key: object, name: string): string =>
      kept.get(key, () => {
        loads.push(name);
        return name;
      });
    expect([read(a, 'a'), read(b, 'b'), read(a, 'a')]).toEqual(['a', 'b', 'a']);
    expect(loads).toEqual(['a', 'b']);
    // c pushes out b, the least recently read; a stays.
    read(c, 'c');
    read(a, 'a');
    read(b, 'b');
    expect(loads).toEqual(['a', 'b', 'c', 'b']);
  });

  it('takes a value put in as read', () => {
    const kept = new RecentlyRead<number>(1);
    const key = {};
    kept.put(key, 7);
    expect(kept.get(key, () => 8)).toBe(7);
  });
});
