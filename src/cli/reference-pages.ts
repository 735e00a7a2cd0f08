// The reference pages of docs/reference/, each generated from the code it documents: written by
// `npm run docs:gen` (scripts/gen-docs.mjs) and compared with the files by reference-pages.test.ts,
// so a page cannot drift from the tool.

import { checksReferenceMarkdown } from './reference-checks.js';
import { optionsReferenceMarkdown } from './reference-options.js';
import { reportsReferenceMarkdown } from './reference-reports.js';

export const REFERENCE_PAGES: ReadonlyArray<{ path: string; render: () => string }> = [
  { path: 'docs/reference/options.md', render: optionsReferenceMarkdown },
  { path: 'docs/reference/checks.md', render: () => checksReferenceMarkdown() },
  { path: 'docs/reference/reports.md', render: reportsReferenceMarkdown },
];
