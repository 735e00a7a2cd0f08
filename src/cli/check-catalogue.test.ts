// Every check and rule of the four certifying commands declares how its evidence arises (provoked,
// conditional, input) and, honestly, whether it may warn. The first half walks the catalogue `svc-certify
// list` shows; the second reads the sources, because whether a check can warn is a property of its code:
// a check (or a helper it calls, or the factory that builds it) that can record a warning must declare
// `warns`, and one that declares it must have a way to warn. The reader is a pure function of the files'
// text, so a test feeds it fake sources and sees each mistake reported: it cannot pass vacuously.

import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../package-root.js';
import { EVIDENCE_KINDS } from '../runner/evidence.js';
import { listVariants } from '../sandbox/index.js';
import { checkCatalogue } from './check-catalogue.js';

const ROOT = packageRoot();

describe('the catalogue of every certifying command declares how each check gets its evidence', () => {
  const catalogue = checkCatalogue();

  it('covers the four commands', () => {
    for (const command of ['run', 'partner', 'receiver', 'scan'])
      expect(
        catalogue.some((e) => e.command === command),
        command,
      ).toBe(true);
  });

  // Whether each declaration is consistent (a valid evidence kind, a conditional one's reason, an input
  // one's unlock, no provoked check an input unlocks) the registry of each command refuses at load
  // (runner/registry.test.ts feeds it each mistake): building the catalogue built all four.
  it('lists every check of every command once, with its declaration', () => {
    const ids = catalogue.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const e of catalogue) expect(EVIDENCE_KINDS, `${e.command} ${e.id}`).toContain(e.evidence);
    expect(catalogue.filter((e) => e.evidence === 'input').every((e) => e.unlock !== undefined)).toBe(true);
  });

  it('declares warns on every check a conformant variant names in its `warns`', () => {
    const byId = new Map(catalogue.filter((e) => e.command === 'run').map((e) => [e.id, e]));
    const named = listVariants().flatMap((v) => (v.warns ?? []).map((id) => ({ variant: v.id, id })));
    expect(named.length).toBeGreaterThan(0);
    const problems = named
      .filter(({ id }) => (byId.get(id)?.warns.length ?? 0) === 0)
      .map(({ variant, id }) => `${id} (warns with ${variant}) declares no warning case`);
    expect(problems).toEqual([]);
  });
});

interface Source {
  file: string;
  text: string;
}

interface Declared {
  file: string;
  line: number;
  id: string;
  mayWarn: boolean;
  declaresWarns: boolean;
}

// t.expect.schema(…) may warn too (a field the spec lists but never states present is missing), for every
// check that judges a schema alike: that one case is stated once, in the checks reference's preamble and
// design.md, not declared check by check.
const isWarnCall = (n: ts.Node): boolean =>
  ts.isCallExpression(n) &&
  ts.isPropertyAccessExpression(n.expression) &&
  // t.expect.warn(…), t.warn(…) (receiver checks), warnings.push(…) (partner rules).
  (n.expression.name.text === 'warn' ||
    (n.expression.name.text === 'push' && /\bwarnings$/.test(n.expression.expression.getText())));

/** advisory: true — an advisory rule or check can only warn. */
const isAdvisory = (n: ts.Node): boolean =>
  ts.isPropertyAssignment(n) && n.name.getText() === 'advisory' && n.initializer.kind === ts.SyntaxKind.TrueKeyword;

const calledName = (n: ts.Node): string | undefined =>
  ts.isCallExpression(n) && ts.isIdentifier(n.expression) ? n.expression.text : undefined;

function some(node: ts.Node, test: (n: ts.Node) => boolean): boolean {
  if (test(node)) return true;
  return ts.forEachChild(node, (c) => (some(c, test) ? true : undefined)) ?? false;
}

const propertyOf = (o: ts.ObjectLiteralExpression, name: string): ts.ObjectLiteralElementLike | undefined =>
  o.properties.find((p) => p.name?.getText() === name);

/**
 * Every object literal with an `id` and a `title` (a check, a rule, or the row a factory builds one
 * from): whether its code, a helper it calls or the factory it is passed to can record a warning, and
 * whether it declares `warns`. A literal that copies its declaration from a row (`...declarationOf(row)`)
 * is judged by its rows.
 */
function declaredWarnings(sources: readonly Source[]): Declared[] {
  const files = sources.map((s) => ts.createSourceFile(s.file, s.text, ts.ScriptTarget.Latest, true));
  // Named functions (declarations and consts bound to arrows or function expressions), by name.
  const functions = new Map<string, ts.Node[]>();
  const add = (name: string, body: ts.Node): void => void functions.set(name, [...(functions.get(name) ?? []), body]);
  for (const f of files)
    some(f, (n) => {
      if (ts.isFunctionDeclaration(n) && n.name) add(n.name.text, n);
      if (
        ts.isVariableDeclaration(n) &&
        ts.isIdentifier(n.name) &&
        n.initializer &&
        (ts.isArrowFunction(n.initializer) || ts.isFunctionExpression(n.initializer))
      )
        add(n.name.text, n.initializer);
      return false;
    });
  // Warners: functions that warn, or call one (to a fixed point).
  const warners = new Set<string>();
  const warnsHere = (n: ts.Node): boolean =>
    some(n, (c) => isWarnCall(c) || isAdvisory(c) || warners.has(calledName(c) ?? ''));
  for (let changed = true; changed;) {
    changed = false;
    for (const [name, bodies] of functions)
      if (!warners.has(name) && bodies.some(warnsHere)) {
        warners.add(name);
        changed = true;
      }
  }
  // Factories whose checks copy the declaration of the row they are given: the row is judged. A check
  // copies it with `...declarationOf(row)`, or by spreading what such a factory returns (to a fixed point).
  const copying = new Set<string>();
  const copiesDeclaration = (o: ts.ObjectLiteralExpression): boolean =>
    o.properties.some(
      (p) =>
        ts.isSpreadAssignment(p) &&
        (/^declarationOf\(/.test(p.expression.getText()) || copying.has(calledName(p.expression) ?? '')),
    );
  for (let changed = true; changed;) {
    changed = false;
    for (const [name, bodies] of functions)
      if (
        !copying.has(name) &&
        bodies.some((b) => some(b, (c) => ts.isObjectLiteralExpression(c) && copiesDeclaration(c)))
      ) {
        copying.add(name);
        changed = true;
      }
  }
  // Factories that spread a parameter into the check they build (`{ ...def, run }`): the row they are
  // given is the declaration, and the code they are given beside it (a judging callback) is the check's.
  // Whether such a factory adds `warns` itself (for every row) is kept.
  const spreading = new Map<string, boolean>();
  for (const [name, bodies] of functions)
    for (const b of bodies) {
      if (!ts.isFunctionDeclaration(b) && !ts.isArrowFunction(b) && !ts.isFunctionExpression(b)) continue;
      const params = new Set(b.parameters.map((p) => p.name.getText()));
      let spreads = false;
      let adds = false;
      some(b, (c) => {
        if (!ts.isObjectLiteralExpression(c)) return false;
        if (!c.properties.some((p) => ts.isSpreadAssignment(p) && params.has(p.expression.getText()))) return false;
        spreads = true;
        adds ||= declaresWarnsIn(c);
        return false;
      });
      if (spreads) spreading.set(name, (spreading.get(name) ?? false) || adds);
    }
  // A factory that hands its row on to another spreading one adds what that one adds.
  for (let changed = true; changed;) {
    changed = false;
    for (const [name, bodies] of functions)
      if (
        spreading.get(name) === false &&
        bodies.some((b) => some(b, (c) => spreading.get(calledName(c) ?? '') === true))
      ) {
        spreading.set(name, true);
        changed = true;
      }
  }
  const out: Declared[] = [];
  for (const f of files)
    some(f, (n) => {
      if (!ts.isObjectLiteralExpression(n) || !propertyOf(n, 'id') || !propertyOf(n, 'title')) return false;
      if (copiesDeclaration(n)) return false;
      // A row given to a factory that copies its declaration may warn when the factory's check may; a
      // row given to any other factory is data, the factory's own literal declaring for all its rows.
      const call = ts.isCallExpression(n.parent) ? n.parent : undefined;
      const factory = call ? calledName(call) : undefined;
      const spreadBy = factory !== undefined ? spreading.get(factory) : undefined;
      if (factory !== undefined && !copying.has(factory) && spreadBy === undefined) return false;
      const besideRow = spreadBy !== undefined && call ? call.arguments.filter((a) => a !== n) : [];
      out.push({
        file: f.fileName,
        line: f.getLineAndCharacterOfPosition(n.getStart()).line + 1,
        id: (propertyOf(n, 'id') as ts.PropertyAssignment).initializer?.getText() ?? '?',
        mayWarn: warnsHere(n) || (factory !== undefined && warners.has(factory)) || besideRow.some((a) => warnsHere(a)),
        declaresWarns: declaresWarnsIn(n) || spreadBy === true,
      });
      return false;
    });
  return out;
}

/** `warns` with at least one case, or a spread that depends on the row: ...(row.body ? { warns: [...] } : {}). */
function declaresWarnsIn(n: ts.ObjectLiteralExpression): boolean {
  const warnsProp = propertyOf(n, 'warns');
  return (
    (warnsProp !== undefined &&
      !(
        ts.isPropertyAssignment(warnsProp) &&
        ts.isArrayLiteralExpression(warnsProp.initializer) &&
        warnsProp.initializer.elements.length === 0
      )) ||
    n.properties.some((p) => ts.isSpreadAssignment(p) && /\bwarns:/.test(p.expression.getText()))
  );
}

const mismatches = (list: readonly Declared[]): string[] =>
  list
    .filter((d) => d.mayWarn !== d.declaresWarns)
    .map((d) =>
      d.mayWarn
        ? `${d.file}:${d.line} ${d.id} may warn but declares no warns`
        : `${d.file}:${d.line} ${d.id} declares warns but nothing in it can warn`,
    );

/** The .ts files of `dirs` and their subfolders (a suite may be a folder of files by topic), tests left out. */
function sourcesOf(dirs: readonly string[], only?: RegExp): Source[] {
  return dirs.flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .map((f) => f.split(sep).join('/'))
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && (!only || only.test(f)))
      .map((f) => ({ file: `${dir}/${f}`, text: readFileSync(join(ROOT, dir, f), 'utf8') })),
  );
}

describe('what may warn is declared, and only that', () => {
  it('every check and rule whose code can warn declares warns; none declares it without a way to warn', () => {
    const sources = [
      ...sourcesOf(['suites', 'src/partner/rules']),
      ...sourcesOf(['src/receiver-cert'], /^receiver-checks\.ts$/),
    ];
    const declared = declaredWarnings(sources);
    // Every check of the catalogue but scan's (built from a table that holds no code) is one of them,
    // but for those a factory builds several of from one literal (the explore suite's 17 checks come
    // from 4, the trio and rejection rows from a few more).
    expect(declared.length).toBeGreaterThanOrEqual(checkCatalogue().filter((e) => e.command !== 'scan').length - 45);
    expect(mismatches(declared)).toEqual([]);
  });

  it('the reader finds a warning through a helper, a factory, a judging callback beside a row and an advisory flag, and a dishonest declaration', () => {
    const fake: Source = {
      file: 'suites/fake.ts',
      text: `
        function helper(t) { t.expect.warn(false, {}); }
        function outer(t) { helper(t); }
        function make(row) { return { id: row.id, title: row.title, ...declarationOf(row), run(t) { outer(t); } }; }
        function headOf(row) { return { id: row.id, title: row.title, ...declarationOf(row) }; }
        function makeFromHead(row) { return { ...headOf(row), run(t) { outer(t); } }; }
        function twoStep(def, judge) { return { ...def, run(t) { judge(t); } }; }
        function warnedTwoStep(def, judge) { return twoStep({ ...def, warns: ['w'] }, judge); }
        const CHECKS = [
          { id: 'a.direct', title: 'a', run(t) { t.expect.warn(true, {}); } },
          { id: 'a.via-helper', title: 'b', warns: ['x'], run(t) { outer(t); } },
          { id: 'a.silent', title: 'c', run(t) { t.expect.status(1, 200); } },
          { id: 'a.claims', title: 'd', warns: ['y'], run(t) { t.expect.status(1, 200); } },
          { id: 'a.empty', title: 'e', warns: [], run(t) { t.expect.status(1, 200); } },
          make({ id: 'a.row', title: 'f' }),
          makeFromHead({ id: 'a.row-via-head', title: 'm' }),
          { id: 'a.rule', title: 'g', advisory: true, judge() {} },
          { id: 'a.pushes', title: 'h', warns: ['z'], judge() { const warnings = []; warnings.push({}); } },
          twoStep({ id: 'a.judged-beside', title: 'i' }, (t) => t.expect.warn(false, {})),
          twoStep({ id: 'a.judged-beside-declared', title: 'j', warns: ['v'] }, (t) => outer(t)),
          twoStep({ id: 'a.beside-claims', title: 'k', warns: ['u'] }, (t) => t.expect.status(1, 200)),
          warnedTwoStep({ id: 'a.factory-declares', title: 'l' }, (t) => outer(t)),
        ];`,
    };
    expect(mismatches(declaredWarnings([fake])).map((m) => m.replace(/^.*:\d+ /, ''))).toEqual([
      "'a.direct' may warn but declares no warns",
      "'a.claims' declares warns but nothing in it can warn",
      "'a.row' may warn but declares no warns",
      "'a.row-via-head' may warn but declares no warns",
      "'a.rule' may warn but declares no warns",
      "'a.judged-beside' may warn but declares no warns",
      "'a.beside-claims' declares warns but nothing in it can warn",
    ]);
  });
});
