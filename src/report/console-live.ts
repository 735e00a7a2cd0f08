// Interactive console (a TTY, not CI): a compact listr2 task list, one task per suite, whose title
// counts finished checks and whose output shows the checks running now with their live progress
// ("cert-slow: 7/10 confirmed, 1:12 left"). One row per check would spin a hundred spinners at once.

import type { ChalkInstance } from 'chalk';
import { DefaultRenderer, Listr, ListrLogger, ProcessOutput, type ListrTask } from 'listr2';
import type { CheckResult, RunResult } from '../runner/results.js';
import { formatCheckLine, formatDossierSummary, formatGroupedSummary, oneLine } from './console-format.js';
import { countStatuses } from './format.js';
import type { PlannedCheck, Reporter, RunStartInfo } from './reporter.js';

/** The caller already decided the output is interactive; listr2 must not second-guess it from process.stdout. */
class StreamRenderer extends DefaultRenderer {
  static override nonTTY = true;
}

/**
 * Runs concurrent listr2 tasks drawn on `stream` (not process.stdout, which listr2 would pick itself);
 * resolves when every task has ended. `collapse` folds finished errors and skips into their titles.
 */
export function runLiveList<T extends ListrTask[]>(
  tasks: T,
  stream: NodeJS.WritableStream,
  opts: { collapse: boolean },
): Promise<void> {
  const listr = new Listr(tasks, {
    concurrent: true,
    exitOnError: false,
    registerSignalListeners: false,
    renderer: StreamRenderer,
    fallbackRendererCondition: false,
    rendererOptions: {
      logger: new ListrLogger({ useIcons: true, processOutput: new ProcessOutput(stream as NodeJS.WriteStream) }),
      collapseErrors: opts.collapse,
      showErrorMessage: true,
      collapseSkips: opts.collapse,
      formatOutput: 'truncate',
    },
  });
  return listr.run().then(
    () => undefined,
    () => undefined,
  );
}

/** The parts of listr2's task wrapper a live view drives. */
export interface LiveTask {
  title: string;
  output: string;
  skip(message?: string): void;
}

interface SuiteState {
  suite: string;
  ids: string[];
  ended: Map<string, CheckResult>;
  /** Running checks and their latest progress message, in start order. */
  running: Map<string, string>;
  task?: LiveTask;
  lastOutput?: string;
  finish: () => void;
  finished: Promise<void>;
}

function suiteStatusText(state: SuiteState): string {
  const counts = countStatuses([...state.ended.values()]);
  const parts = [`${state.ended.size}/${state.ids.length}`];
  if (counts.failed > 0) parts.push(`${counts.failed} failed`);
  if (counts.error > 0) parts.push(`${counts.error} ${counts.error === 1 ? 'error' : 'errors'}`);
  if (counts.warning > 0) parts.push(`${counts.warning} ${counts.warning === 1 ? 'warning' : 'warnings'}`);
  if (counts.skipped > 0) parts.push(`${counts.skipped} skipped`);
  return `${state.suite}  ${parts.join(' · ')}`;
}

/** One line: listr2 appends every output write to a buffer, so a multi-line list would pile up stale rows. */
function runningLine(state: SuiteState): string {
  if (state.running.size === 0) return state.ended.size < state.ids.length ? 'waiting' : '';
  // A check with live progress is the most informative one to show.
  const entries = [...state.running];
  const shown = entries.find(([, message]) => message !== '') ?? entries[0];
  if (shown === undefined) return 'waiting';
  const [id, progress] = shown;
  const more = state.running.size > 1 ? ` (+${state.running.size - 1} running)` : '';
  return `${oneLine(id, 80)}${progress ? `: ${oneLine(progress, 80)}` : ''}${more}`;
}

function refresh(state: SuiteState): void {
  if (!state.task) return;
  state.task.title = suiteStatusText(state);
  const line = runningLine(state);
  if (line !== state.lastOutput) {
    state.lastOutput = line;
    state.task.output = line;
  }
}

function newSuiteState(suite: string, checks: PlannedCheck[]): SuiteState {
  let finish = (): void => undefined;
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const state: SuiteState = {
    suite,
    ids: checks.map((check) => check.id),
    ended: new Map(),
    running: new Map(),
    finish,
    finished,
  };
  if (state.ids.length === 0) finish();
  return state;
}

export interface LiveConsoleOptions {
  stream: NodeJS.WritableStream;
  chalk: ChalkInstance;
}

/** The suites of a plan in order (the plan's, then any a check names besides), each with its checks; none empty. */
function suiteStatesOf(info: RunStartInfo): SuiteState[] {
  const order = [...info.suites];
  for (const check of info.checks) if (!order.includes(check.suite)) order.push(check.suite);
  return order
    .map((suite) =>
      newSuiteState(
        suite,
        info.checks.filter((check) => check.suite === suite),
      ),
    )
    .filter((state) => state.ids.length > 0);
}

/** A suite's row: it follows the suite's checks until the last one ends. */
function suiteTask(state: SuiteState): ListrTask {
  return {
    title: suiteStatusText(state),
    rendererOptions: { outputBar: true, persistentOutput: false },
    task: async (_ctx: unknown, task: LiveTask) => {
      state.task = task;
      refresh(state);
      await state.finished;
      state.running.clear();
      refresh(state);
      const counts = countStatuses([...state.ended.values()]);
      // A thrown error is how listr2 shows a red ✖ on the row; the details come in the summary.
      if (counts.failed > 0 || counts.error > 0) throw new Error(suiteStatusText(state));
      if (counts.skipped === counts.total && counts.total > 0) task.skip(suiteStatusText(state));
    },
  };
}

/** An aborted run may leave planned checks without an end event: each row is closed with the result's checks. */
function closeRows(suites: Iterable<SuiteState>, result: RunResult): void {
  const byId = new Map(result.checks.map((check) => [check.id, check]));
  for (const state of suites) {
    for (const id of state.ids) {
      const check = byId.get(id);
      if (!state.ended.has(id) && check) state.ended.set(id, check);
    }
    state.running.clear();
    refresh(state);
    state.finish();
  }
}

export function createLiveConsoleReporter(opts: LiveConsoleOptions): Reporter {
  const { stream, chalk: c } = opts;
  const suites = new Map<string, SuiteState>();
  const suiteOf = new Map<string, SuiteState>();
  let done: Promise<unknown> | undefined;

  function start(info: RunStartInfo): void {
    for (const state of suiteStatesOf(info)) {
      suites.set(state.suite, state);
      for (const id of state.ids) suiteOf.set(id, state);
    }
    done = runLiveList([...suites.values()].map(suiteTask), stream, { collapse: true });
  }

  function end(check: CheckResult): void {
    const state = suiteOf.get(check.id);
    if (!state) return;
    state.running.delete(check.id);
    state.ended.set(check.id, check);
    refresh(state);
    if (state.ended.size >= state.ids.length) state.finish();
  }

  return {
    name: 'console',
    onRunStart(info) {
      start(info);
    },
    onCheckStart(id) {
      const state = suiteOf.get(id);
      if (!state) return;
      state.running.set(id, '');
      refresh(state);
    },
    onCheckProgress(id, message) {
      const state = suiteOf.get(id);
      if (!state || state.ended.has(id)) return;
      state.running.set(id, message);
      refresh(state);
    },
    onCheckEnd(check) {
      // Without a plan (no onRunStart) there is no task list to update: fall back to a plain line.
      if (!done) stream.write(`${formatCheckLine(check, c)}\n`);
      else end(check);
    },
    async onRunEnd(result: RunResult) {
      closeRows(suites.values(), result);
      if (done) await done;
      stream.write(`\n${formatGroupedSummary(result, c)}`);
    },
    // `report` runs no check: no task list to close, only the summary to print.
    onDossierEnd(head: RunResult, parts: Iterable<RunResult>) {
      stream.write('\n');
      for (const chunk of formatDossierSummary(head, parts, c)) stream.write(chunk);
    },
  };
}
