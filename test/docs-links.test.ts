// Every relative link of the documentation resolves: README.md, ARCHITECTURE.md and every page of docs/
// (the generated reference included). A link to a file must name one that exists; a link with an
// #anchor must name a heading of its target page, by GitHub's rule for heading anchors. The checker is
// a pure function of the pages' text, so a test feeds it broken links and sees each one reported.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './cli-support.js';

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of withoutFences(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
    const base = (heading ?? '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const [, id] of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id ?? '');
  return anchors;
}

const withoutFences = (markdown: string): string => markdown.replace(/^```[\s\S]*?^```/gm, '');

/** The text with fenced blocks and inline code blanked out: a link written as code is not a link. */
const withoutCode = (markdown: string): string => withoutFences(markdown).replace(/`[^`\n]*`/g, '');

export interface Page {
  /** Path relative to the repository root, with `/`. */
  file: string;
  text: string;
}

/** Every broken relative link of the pages: "file: [target] why". `exists` answers for paths outside the pages. */
export function brokenLinks(pages: readonly Page[], exists: (path: string) => boolean): string[] {
  const byFile = new Map(pages.map((p) => [p.file, p.text]));
  const broken: string[] = [];
  for (const page of pages) {
    const text = withoutCode(page.text);
    const targets = [
      ...[...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1] ?? ''),
      ...[...text.matchAll(/^\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1] ?? ''),
    ];
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …
      const [path = '', anchor] = target.split('#');
      const file = path === '' ? page.file : normalize(join(dirname(page.file), path)).replace(/\\/g, '/');
      if (path !== '' && !byFile.has(file) && !exists(file)) {
        broken.push(`${page.file}: [${target}] no such file`);
        continue;
      }
      if (anchor === undefined || anchor === '') continue;
      const targetText = byFile.get(file);
      if (targetText === undefined) {
        if (file.endsWith('.md')) broken.push(`${page.file}: [${target}] anchor in a page that is not checked`);
        continue;
      }
      if (!anchorsOf(targetText).has(anchor)) broken.push(`${page.file}: [${target}] no heading #${anchor}`);
    }
  }
  return broken;
}

function markdownUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (statSync(join(ROOT, path)).isDirectory()) return markdownUnder(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

const PAGES: Page[] = ['README.md', 'ARCHITECTURE.md', ...markdownUnder('docs'), 'test/vendor/README.md'].map(
  (file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }),
);

describe('documentation links', () => {
  it('every relative link and #anchor of README, ARCHITECTURE and docs/ resolves', () => {
    expect(PAGES.length).toBeGreaterThanOrEqual(10);
    const exists = (path: string): boolean =>
      existsSync(join(ROOT, path)) && !relative(ROOT, join(ROOT, path)).startsWith('..');
    expect(brokenLinks(PAGES, exists)).toEqual([]);
  });

  it('reports a missing file, a missing heading, and a link to a heading of the same page', () => {
    const pages: Page[] = [
      {
        file: 'README.md',
        text: [
          '# Title',
          '## Verdicts and exit codes',
          '[ok](docs/a.md#the-a-page) [self](#verdicts-and-exit-codes) [web](https://example.com/x.md)',
          '[gone](docs/missing.md) [bad anchor](docs/a.md#nowhere) [bad self](#nope) `[code](docs/none.md)`',
        ].join('\n'),
      },
      { file: 'docs/a.md', text: '# The `a` page\n[up](../README.md#title) [file](../LICENSE)' },
    ];
    expect(brokenLinks(pages, (p) => p === 'LICENSE')).toEqual([
      'README.md: [docs/missing.md] no such file',
      'README.md: [docs/a.md#nowhere] no heading #nowhere',
      'README.md: [#nope] no heading #nope',
    ]);
  });

  it('anchors follow GitHub: punctuation dropped, code spans kept as words, repeats numbered', () => {
    const anchors = anchorsOf("# `svc-certify run`\n## Scan and receiver: the partner's side\n## A\n## A");
    expect([...anchors]).toEqual(['svc-certify-run', 'scan-and-receiver-the-partners-side', 'a', 'a-1']);
  });
});
