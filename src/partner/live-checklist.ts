// The partner's checklist on the console while the session runs. On a terminal (not CI): a listr2 task
// per rule, pending (spinner, with what to do next) until the traffic breaks it (✗ at once) or the
// session ends; a rule the traffic proved says so in its title. Elsewhere: one plain line per change of a
// rule's state, so a CI log shows progress without cursor tricks. Both end with the grouped summary.

import type { ChalkInstance } from 'chalk';
import type { ListrTask } from 'listr2';
import { formatGroupedSummary, makeChalk, oneLine } from '../report/console-format.js';
import { runLiveList, type LiveTask } from '../report/console-live.js';
import type { Reporter } from '../report/reporter.js';
import type { RunResult } from '../runner/results.js';
import { CHECKLIST } from './checklist.js';
import type { Judged } from './judge.js';
import { NOT_EXERCISED, type Rule, type RuleState } from './rules/rule.js';

interface Row {
  rule: Rule;
  state: RuleState;
  message: string;
  task?: LiveTask;
  done: () => void;
  finished: Promise<void>;
}

export interface PartnerConsole extends Reporter {
  /** The latest verdicts while the session runs. */
  update(judged: readonly Judged[]): void;
  /** Shows the final verdicts (each row ends), before onRunEnd. */
  showFinal(judged: readonly Judged[]): void;
}

export function createPartnerConsole(opts: {
  stream: NodeJS.WritableStream;
  interactive: boolean;
  color: boolean;
  rules: readonly Rule[];
}): PartnerConsole {
  const c = makeChalk(opts.color);
  const rows = new Map<string, Row>();
  for (const rule of opts.rules) {
    let done = (): void => undefined;
    const finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    rows.set(rule.id, { rule, state: 'pending', message: `${NOT_EXERCISED}${rule.hint}`, done, finished });
  }
  // The steps every session contains, first: a rule still pending names the step that reaches it.
  opts.stream.write(checklistText(c));
  return opts.interactive ? live(opts.stream, c, rows) : plain(opts.stream, c, rows);
}

/** The session checklist as the console lists it (docs/partner.md lists the same steps). */
function checklistText(c: ChalkInstance): string {
  const steps = CHECKLIST.map((s, i) => `  ${i + 1}. ${s.title}`).join('\n');
  return `${c.bold('A partner session contains these steps')} ${c.dim('(each rule below is judged on the traffic of one of them)')}\n${steps}\n`;
}

function live(stream: NodeJS.WritableStream, c: ChalkInstance, rows: Map<string, Row>): PartnerConsole {
  const paint = (row: Row): void => {
    if (!row.task) return;
    row.task.title =
      row.state === 'passed'
        ? `${row.rule.id}  ${c.green('holds so far')}`
        : row.state === 'warning'
          ? `${row.rule.id}  ${c.yellow('⚠ warning')}`
          : row.rule.id;
    row.task.output = oneLine(row.message, 120);
  };
  const tasks: ListrTask[] = [...rows.values()].map((row) => ({
    title: row.rule.id,
    rendererOptions: { outputBar: 1, persistentOutput: true },
    task: async (_ctx: unknown, task: LiveTask) => {
      row.task = task;
      paint(row);
      await row.finished;
      task.title = row.state === 'warning' ? `${row.rule.id}  ${c.yellow('⚠ warning')}` : row.rule.id;
      task.output = oneLine(row.message, 120);
      if (row.state === 'failed') throw new Error(`${row.rule.id}: ${oneLine(row.message, 120)}`);
      if (row.state === 'skipped' || row.state === 'pending') task.skip(`${row.rule.id}: ${oneLine(row.message, 120)}`);
    },
  }));
  const done = runLiveList(tasks, stream, { collapse: false });
  const apply = (judged: readonly Judged[], final: boolean): void => {
    for (const { rule, verdict } of judged) {
      const row = rows.get(rule.id);
      if (!row) continue;
      // A broken rule stays broken: its row ends at once.
      if (row.state === 'failed') continue;
      row.state = verdict.state;
      // A conditional rule the session never exercised does not apply (judge.ts): its row says why.
      row.message =
        verdict.state === 'skipped' && verdict.unlock === undefined && rule.evidence === 'conditional'
          ? `not applicable: ${rule.notApplicableWhen ?? verdict.message}`
          : verdict.message;
      paint(row);
      if (final || verdict.state === 'failed') row.done();
    }
  };
  return {
    name: 'console',
    update: (judged) => apply(judged, false),
    showFinal: (judged) => apply(judged, true),
    async onRunEnd(result: RunResult) {
      for (const row of rows.values()) row.done();
      await done;
      stream.write(`\n${formatGroupedSummary(result, c)}`);
    },
  };
}

function plain(stream: NodeJS.WritableStream, c: ChalkInstance, rows: Map<string, Row>): PartnerConsole {
  stream.write(
    `${c.dim(`judging ${rows.size} rules; each is pending until the partner's traffic proves or breaks it`)}\n`,
  );
  const apply = (judged: readonly Judged[]): void => {
    for (const { rule, verdict } of judged) {
      const row = rows.get(rule.id);
      if (!row || row.state === verdict.state) continue;
      row.state = verdict.state;
      row.message = verdict.message;
      const word =
        verdict.state === 'passed'
          ? c.green('holds so far')
          : verdict.state === 'failed'
            ? c.red('failed')
            : c.yellow(verdict.state);
      // The end prints every rule's final line in the summary: only changes during the session here.
      stream.write(`… ${c.bold(rule.id)} ${word}: ${oneLine(verdict.message)}\n`);
    }
  };
  return {
    name: 'console',
    update: apply,
    showFinal: () => undefined,
    onRunEnd(result: RunResult) {
      stream.write(`\n${formatGroupedSummary(result, c)}`);
    },
  };
}
