import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
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

  it('leaves no file in the temporary directory, while it is kept nor after the process is killed', () => {
    // A directory of this test's own as TMPDIR: nothing else writes there.
    const dir = mkdtempSync(join(tmpdir(), 'spill-test-'));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = dir;
    try {
      const kept = spillText(Buffer.from('x'.repeat(100)), 'x'.repeat(100));
      expect(readdirSync(dir)).toEqual([]);
      expect(kept.read()).toBe('x'.repeat(100));
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    // The built module, as the CLI runs it, in a process killed while it holds a large answer.
    const built = fileURLToPath(new URL('../../dist/src/http/spilled-text.js', import.meta.url));
    const child = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { spillText } = await import(${JSON.stringify(built)});
         const kept = spillText(Buffer.from('y'), 'y');
         process.stdout.write(kept.read());
         process.kill(process.pid, 'SIGKILL');`,
      ],
      { encoding: 'utf8', env: { ...process.env, TMPDIR: dir } },
    );
    expect(child.stdout).toBe('y');
    expect(child.signal).toBe('SIGKILL');
    expect(readdirSync(dir)).toEqual([]);
    rmSync(dir, { recursive: true });
  });
});
