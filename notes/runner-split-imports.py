#!/usr/bin/env python3
"""Re-applies the import changes of branch runner-split to files written against the old layout (for
example suites/ after they moved into folders). Idempotent, and independent of a file's depth: each
relative import is resolved against the importing file's own folder.

  python3 notes/runner-split-imports.py $(git ls-files 'suites/*.ts' 'test/*.ts' 'bench/*.ts' 'src/*.ts')

1. Modules that moved: src/runner/{shared-setup,webhook-trio,environment-evidence,preflight,exploration,
   certify} -> src/api-setup/; src/runner/spec-section-names -> src/spec/section-names;
   src/runner/spec-sections -> src/spec/spec-file; src/runner/notice-codes -> src/spec/notice-codes;
   suites/spec-refs and src/partner/spec-refs -> src/spec/sections (the one table S).
2. `import type { CheckContext, CheckDefinition, ... } from '<up>/src/runner/check.js'`: CheckContext and
   CheckDefinition come from src/api-setup/check.js (the engine's check model given the API's setup);
   any other name stays on a line of its own from src/runner/check.js.
3. Partner rules: `import { P } from '../spec-refs.js'` becomes `import { S } from '../../spec/sections.js'`,
   `P.errorsByEndpoint` -> `S.byEndpoint`, `P.x` -> `S.x` (only in files that imported P).
"""
import os, re, sys

MOVED = {
    'src/runner/spec-section-names': 'src/spec/section-names',
    'src/runner/spec-sections': 'src/spec/spec-file',
    'src/runner/notice-codes': 'src/spec/notice-codes',
    'suites/spec-refs': 'src/spec/sections',
    'suites/support/spec-refs': 'src/spec/sections',
    'src/partner/spec-refs': 'src/spec/sections',
    'src/runner/shared-setup': 'src/api-setup/shared-setup',
    'src/runner/webhook-trio': 'src/api-setup/webhook-trio',
    'src/runner/environment-evidence': 'src/api-setup/environment-evidence',
    'src/runner/preflight': 'src/api-setup/preflight',
    'src/runner/exploration': 'src/api-setup/exploration',
    'src/runner/certify': 'src/api-setup/certify',
}
SPEC = re.compile(r"""(['"])(\.{1,2}/[^'"]+?)\.js\1""")
CHECK_IMPORT = re.compile(r"^import type \{ ([^}]*) \} from '((?:\.\./)+)src/runner/check\.js';$", re.M)
API_NAMES = {'CheckContext', 'CheckDefinition'}


def rel(fromdir: str, to: str) -> str:
    r = os.path.relpath(to, fromdir)
    return r if r.startswith('..') else './' + r


def fix(path: str, text: str) -> str:
    here = os.path.dirname(path)

    def moved(m: re.Match) -> str:
        q, spec = m.group(1), m.group(2)
        target = os.path.normpath(os.path.join(here, spec))
        return f'{q}{rel(here, MOVED[target])}.js{q}' if target in MOVED else m.group(0)

    text = SPEC.sub(moved, text)

    def check(m: re.Match) -> str:
        names = [n.strip() for n in m.group(1).split(',') if n.strip()]
        api = [n for n in names if n in API_NAMES]
        rest = [n for n in names if n not in API_NAMES]
        up = m.group(2)
        out = []
        if api:
            out.append(f"import type {{ {', '.join(api)} }} from '{up}src/api-setup/check.js';")
        if rest:
            out.append(f"import type {{ {', '.join(rest)} }} from '{up}src/runner/check.js';")
        return '\n'.join(out)

    text = CHECK_IMPORT.sub(check, text)

    if path.startswith('src/partner/') and re.search(r"^import \{ P \} from '[./]*(spec-refs|spec/sections)\.js';$", text, re.M):
        text = re.sub(r"^import \{ P \} from '[./]*(spec-refs|spec/sections)\.js';$",
                      lambda m: f"import {{ S }} from '{rel(here, 'src/spec/sections')}.js';", text, flags=re.M)
        text = re.sub(r'\bP\.errorsByEndpoint\b', 'S.byEndpoint', text)
        text = re.sub(r'\bP\.([A-Za-z]+)\b', r'S.\1', text)
    return text


for path in sys.argv[1:]:
    path = os.path.normpath(path)
    old = open(path).read()
    new = fix(path, old)
    if new != old:
        open(path, 'w').write(new)
        print('rewrote', path)
