// Exit 2 of a certifying command after its options were read: the report files are written anyway
// (results.json with `verdict: "error"` and the reason, junit.xml with one errored testcase,
// summary.md, report.html), so a pipeline's `always` steps have something to show. Where they go and
// which are written is read from the report options as leniently as possible: the error may be one
// of those options itself, and then the defaults stand. A report folder that cannot be written is the
// one case with nothing to write; the stderr line stays the only word.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { envOf } from '../config/option-spec.js';
import {
  DEFAULT_REPORTERS,
  parseReporterToken,
  reporterNamesOf,
  type ReporterToken,
} from '../config/reporter-names.js';
import { REPORT_OPTIONS } from '../config/run-options.js';
import type { CertificationKind } from '../runner/results.js';
import { ERROR_REPORT_FILES, renderErrorReport, type ErrorReportName } from '../report/error-reports.js';
import { errorResult } from '../runner/error-result.js';
import { prepareReportDir } from '../report/report-dir.js';
import { writeReportFile } from '../report/write-report-file.js';
import { isOneOf } from '../narrow.js';
import { specDigestIfReadable } from '../spec/spec-digest.js';

export interface ExitTwoContext {
  certification: CertificationKind;
  /** The command's parsed flags (commander's keys). */
  flags: Record<string, unknown>;
  /** Files the command reads (`report`'s results): never overwritten by an error report. */
  inputs?: readonly string[];
  startedAt: Date;
  env?: Record<string, string | undefined>;
  cwd?: string;
}

const optionEnv = (key: string): string => envOf(REPORT_OPTIONS.find((o) => o.key === key)!);

/** `run` also reads svc-certify.config.json; a file that is itself the error gives nothing. */
function configFileValue(cwd: string, key: string): unknown {
  try {
    const parsed: unknown = JSON.parse(readFileSync(resolve(cwd, 'svc-certify.config.json'), 'utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)[key] : undefined;
  } catch {
    return undefined;
  }
}

function firstText(...values: unknown[]): string | undefined {
  for (const v of values) if (typeof v === 'string' && v.trim() !== '') return v;
  return undefined;
}

function reportersOf(ctx: ExitTwoContext, env: Record<string, string | undefined>, cwd: string): ReporterToken[] {
  const flag = ctx.flags['reporter'];
  const fromFile = ctx.certification === 'run' ? configFileValue(cwd, 'reporter') : undefined;
  const given: unknown = flag ?? env[optionEnv('reporter')] ?? fromFile;
  const list = Array.isArray(given) ? given.map(String) : typeof given === 'string' ? [given] : undefined;
  if (!list) return [...DEFAULT_REPORTERS];
  try {
    return reporterNamesOf(list);
  } catch {
    // The reporter list may be the error: every default report then.
    return [...DEFAULT_REPORTERS];
  }
}

/**
 * Writes the error reports of `reason`; resolves to the paths written. Never throws: the error that
 * stopped the command is what the operator must see.
 */
export async function writeExitTwoReports(ctx: ExitTwoContext, reason: string): Promise<string[]> {
  const env = ctx.env ?? process.env;
  const cwd = ctx.cwd ?? process.cwd();
  const fromFile = ctx.certification === 'run' ? configFileValue(cwd, 'reportDir') : undefined;
  const reportDir = resolve(cwd, firstText(ctx.flags['reportDir'], env[optionEnv('reportDir')], fromFile) ?? 'reports');
  const baseUrl = ctx.certification === 'run' ? firstText(ctx.flags['baseUrl'], env['SVC_BASE_URL']) : undefined;
  const result = errorResult({
    spec: specDigestIfReadable(),
    certification: ctx.certification,
    reason,
    ...(baseUrl !== undefined ? { baseUrl } : {}),
    startedAt: ctx.startedAt,
  });
  const inputs = new Set((ctx.inputs ?? []).map((p) => resolve(cwd, p)));
  const written: string[] = [];
  // Made ready the way every report folder is (one level at a time: a recursive mkdir spins forever on
  // /proc), once, when a file is due; a folder that cannot be made is the case with no file to write.
  let ready: boolean | undefined;
  for (const token of reportersOf(ctx, env, cwd)) {
    const { name, stdout } = parseReporterToken(token);
    if (!isOneOf(Object.keys(ERROR_REPORT_FILES) as ErrorReportName[], name)) continue;
    const text = renderErrorReport(name, result);
    if (stdout) {
      process.stdout.write(text);
      continue;
    }
    const file = ERROR_REPORT_FILES[name];
    if (inputs.has(resolve(reportDir, file))) continue;
    ready ??= await prepareReportDir(reportDir).then(
      () => true,
      () => false,
    );
    if (!ready) continue;
    try {
      written.push(await writeReportFile(reportDir, file, text));
    } catch {
      // An unwritable folder: the stderr line says why the command stopped.
    }
  }
  return written;
}
