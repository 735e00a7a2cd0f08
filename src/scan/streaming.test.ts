// Streaming must not change what is found: the same text cut at every possible place gives the
// same matches as the text in one piece (chunk boundaries inside a key, an escape, a newline).

import { describe, expect, it } from 'vitest';
import { harScanner } from './part-scanners.js';
import type { Finding } from './finding.js';
import { TextMatcher, type TextMatch } from './text-matcher.js';

const KEY = `spk_live_${'c3'.repeat(24)}`;
const TEXT = `a\nb="${KEY}";\n\n x=%22sot%5F${'d4'.repeat(24)} "spk\\u005flive_zz" despk_a`;

function matchAll(pieces: string[]): TextMatch[] {
  const out: TextMatch[] = [];
  const m = new TextMatcher((x) => out.push(x));
  for (const p of pieces) m.push(p);
  m.end();
  return out;
}

describe('streaming', () => {
  it('finds the same matches whatever the chunk boundaries', () => {
    const whole = matchAll([TEXT]);
    expect(whole.map((m) => [m.kind, m.line, m.column])).toEqual([
      ['partner-key', 2, 4],
      ['org-token', 4, 7],
      ['prefix', 4, 63],
    ]);
    for (let cut = 1; cut < TEXT.length; cut++) expect(matchAll([TEXT.slice(0, cut), TEXT.slice(cut)])).toEqual(whole);
    expect(matchAll([...TEXT])).toEqual(whole);
  });

  it('keeps only a bounded window of a long one-line text', () => {
    const m = new TextMatcher(() => undefined);
    const block = 'x'.repeat(1 << 16);
    for (let i = 0; i < 64; i++) m.push(block);
    // The private buffer holds the look-behind and look-ahead window, not the 4 MB pushed.
    expect((m as unknown as { buf: string }).buf.length).toBeLessThan(1024);
  });

  it('reads a HAR cut at every place the same way', () => {
    const har = JSON.stringify({
      log: {
        entries: [
          {
            request: {
              url: `https://x/?a=\u00e9\u0001\\\\&k=${KEY}`,
              headers: [{ name: 'x-k', value: `"\\n${KEY}"` }],
            },
          },
        ],
      },
    });
    const run = (pieces: string[]): Finding[] => {
      const out: Finding[] = [];
      const s = harScanner('f.har', null, (f) => out.push(f));
      for (const p of pieces) s.write(p);
      s.end();
      return out;
    };
    const whole = run([har]);
    expect(whole.map((f) => f.location)).toEqual([
      'log.entries[0].request.url',
      'log.entries[0].request.headers[0].value (x-k)',
    ]);
    for (let cut = 1; cut < har.length; cut++) expect(run([har.slice(0, cut), har.slice(cut)])).toEqual(whole);
  });
});
