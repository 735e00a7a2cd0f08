// Only the endpoint table (src/api/endpoints.ts) takes an API path apart on the certifier's side: a split
// on '/', a regular expression over an API path or path pattern, or a comparison of a path with an API
// path literal anywhere else is a second, drifting copy of which endpoints exist. The sandbox routes by
// its own table on purpose and is left out; so are tests and JSON pointers (not API paths). The benches
// read recorded exchanges as reports do, so they are held to the same rule.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const TABLE = 'src/api/endpoints.ts';
const LEFT_OUT = ['src/sandbox/', 'src/json/pointer.ts'];

/** What taking an API path apart looks like in this code base's TypeScript. */
const PARSING = [
  /split\('\/'\)/,
  /\\\/(v1|runs|users|jobs|activations|sandbox|candidates|decisions|reveal|webhooks|organizations)\b/,
  /\\\{\(/,
  /path (===|!==) '\//,
  /startsWith\('\/v1/,
];

/** Each line of `text` that parses a path, as `file:line: text`. */
function pathParsing(file: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, i) => (PARSING.some((p) => p.test(line)) ? [`${file}:${i + 1}: ${line.trim()}`] : []));
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('path parsing', () => {
  const files = ['src', 'suites', 'bench']
    .flatMap((d) => sources(join(ROOT, d)))
    .map((path) => relative(ROOT, path).split(sep).join('/'))
    .filter((f) => !LEFT_OUT.some((p) => f.startsWith(p)));

  it('happens only in the endpoint table', () => {
    expect(files).toContain('src/partner/recorder.ts');
    expect(files).toContain('bench/certify-bench.ts');
    const found = files.flatMap((f) => pathParsing(f, readFileSync(join(ROOT, f), 'utf8')));
    expect(found.filter((l) => !l.startsWith(`${TABLE}:`))).toEqual([]);
    // The table itself is found: the patterns recognise the parsing it does.
    expect(found.some((l) => l.startsWith(`${TABLE}:`))).toBe(true);
  });

  it('recognises each way the replaced parsers took a path apart', () => {
    for (const line of [
      "const s = path.replace(/^\\/v1\\//, '').split('/');",
      'const runRead = /^\\/v1\\/runs\\/([^/]+)$/.exec(path);',
      "if (path === '/v1/users') return;",
      "if (!path.startsWith('/v1/')) return;",
      'const names = [...op.path.matchAll(/\\{(\\w+)\\}/g)];',
      'const RUN_PATH = /^\\/runs\\/([^/?#]+)$/;',
      '/\\/runs$/.test(e.request.url),',
      'const decisions = /\\/decisions$/.test(url);',
    ])
      expect(pathParsing('x.ts', line), line).toHaveLength(1);
    expect(pathParsing('x.ts', "await t.api.get(`/runs/${id}`, { label: 'read' });")).toEqual([]);
  });
});
