import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readBody } from './answer.js';
import { LARGE_ANSWERS_KEPT, LAZY_JSON_ABOVE_CHARS } from './evidence-limits.js';
import type { Incoming } from './exchange.js';
import { spillText } from './spilled-text.js';

const incoming = (text: string): Incoming =>
  ({ status: 200, headers: {}, bytes: Buffer.from(text), received: Buffer.byteLength(text) }) as Incoming;

describe('a large answer', () => {
  it('is kept in a private file and read back, text and JSON, once others were read since', () => {
    const items = Array.from({ length: LAZY_JSON_ABOVE_CHARS / 8 }, (_, i) => `"é${i}"`).join(',');
    const text = `{"items":[${items}]}`;
    const body = readBody(incoming(text));
    expect(body.large).toBe(true);
    // Others read since: this one is no longer in memory, and comes back from its file.
    for (let i = 0; i <= LARGE_ANSWERS_KEPT; i++) readBody(incoming(`${text} `)).text;
    expect(body.text).toBe(text);
    expect((body.json as { items: string[] }).items.at(-1)).toBe(`é${LAZY_JSON_ABOVE_CHARS / 8 - 1}`);
  });

  it('is written with mode 0600 in a directory of its own', () => {
    const before = new Set(readdirSync(tmpdir()));
    spillText(Buffer.from('x'), 'x');
    const dirs = readdirSync(tmpdir()).filter((d) => d.startsWith('svc-certify-answers-'));
    const ours = dirs.find((d) => !before.has(d)) ?? dirs[0]!;
    const files = readdirSync(join(tmpdir(), ours));
    expect(files.length).toBeGreaterThan(0);
    expect(statSync(join(tmpdir(), ours, files[0]!)).mode & 0o777).toBe(0o600);
  });

  it('leaves no file behind when the process exits (the built module, as the CLI runs it)', () => {
    const built = fileURLToPath(new URL('../../dist/src/http/spilled-text.js', import.meta.url));
    const out = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { spillText } = await import(${JSON.stringify(built)});
         const { readdirSync } = await import('node:fs');
         const { tmpdir } = await import('node:os');
         const before = new Set(readdirSync(tmpdir()));
         spillText(Buffer.from('x'), 'x');
         process.stdout.write(readdirSync(tmpdir()).filter((d) => !before.has(d)).join('\\n'));`,
      ],
      { encoding: 'utf8' },
    );
    expect(out).toMatch(/^svc-certify-answers-/);
    expect(existsSync(join(tmpdir(), out))).toBe(false);
  });
});
