// The reports of a certification that never began: a usage or configuration error, an unreachable
// target, a busy port (exit 2). CI steps that run `always` (publish junit.xml, append summary.md to the
// job summary, upload reports/) would otherwise fail too and hide the one line that says what went
// wrong, so the same files are written with `verdict: "error"` and that line as the reason. They are
// rendered here rather than by the reporters: there is no check, no target answer and no verdict of
// the verdict table to show, only the reason.

import type { ErrorResult } from '../runner/error-result.js';
import { escapeHtml } from './html-escape.js';
import { mdCell } from './markdown.js';
import { cdata, escapeXmlAttr } from './xml-text.js';

/** The file reports an exit 2 writes, by reporter name, in the order of the report registry. */
export const ERROR_REPORT_FILES = {
  junit: 'junit.xml',
  html: 'report.html',
  json: 'results.json',
  markdown: 'summary.md',
} as const;
export type ErrorReportName = keyof typeof ERROR_REPORT_FILES;

const HEADLINE = 'Error: the certification did not start (exit 2)';

function renderJson(result: ErrorResult): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}

/** One errored testcase, so a CI test tab shows the reason where it shows failures. */
function renderJunit(result: ErrorResult): string {
  const reason = result.error.reason;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<testsuites name="svc-certify" tests="1" failures="0" errors="1" time="0.000">',
    `  <testsuite name="${escapeXmlAttr(`${result.certification}.setup`)}" tests="1" failures="0" errors="1" skipped="0" time="0.000">`,
    `    <testcase name="${escapeXmlAttr(`${result.certification}.setup`)}" classname="svc-certify.setup" time="0.000">`,
    `      <error message="${escapeXmlAttr(reason)}" type="usage">${cdata(`${HEADLINE}\n\n${reason}`)}</error>`,
    '    </testcase>',
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

function renderMarkdown(result: ErrorResult): string {
  return [
    `# ❌ svc-certify: ${HEADLINE}`,
    '',
    `| ${mdCell(result.title)} | |`,
    '| --- | --- |',
    `| reason | ${mdCell(result.error.reason)} |`,
    '',
    'Nothing was sent to the target and no check ran; fix what the reason names and run again.',
    '',
  ].join('\n');
}

function renderHtml(result: ErrorResult): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>svc-certify: ${escapeHtml(HEADLINE)}</title>`,
    '<style>body{font:16px/1.5 system-ui,sans-serif;margin:2rem;max-width:60rem;color:#1a1a1a}h1{color:#a40000}code{background:#f3f3f3;padding:.1rem .3rem}</style>',
    '</head>',
    '<body>',
    '<main>',
    `<h1>${escapeHtml(HEADLINE)}</h1>`,
    `<p>${escapeHtml(result.title)}: <code>${escapeHtml(result.error.reason)}</code></p>`,
    '<p>Nothing was sent to the target and no check ran; fix what the reason names and run again.</p>',
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

const RENDER: Record<ErrorReportName, (result: ErrorResult) => string> = {
  junit: renderJunit,
  html: renderHtml,
  json: renderJson,
  markdown: renderMarkdown,
};

export function renderErrorReport(name: ErrorReportName, result: ErrorResult): string {
  return RENDER[name](result);
}
