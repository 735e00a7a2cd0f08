// SIGINT/SIGTERM as a command sees them: the first one asks for an orderly end (run: interrupt and
// write the reports; partner and serve: the normal end of the session), a second one during that
// shutdown cuts it short (the reports already assembled are still written). Handlers stay installed
// for the whole command (never `once`): a second Ctrl-C must never fall through to Node's default,
// which kills the process before any report is written.

export type StopSignal = 'SIGINT' | 'SIGTERM';

export interface SignalWatch {
  /** Resolves with the first signal. */
  readonly first: Promise<StopSignal>;
  /** Resolves with the second signal. */
  readonly second: Promise<StopSignal>;
  /** The first signal, once one came. */
  received(): StopSignal | undefined;
  /** Removes the handlers (the command is done). */
  dispose(): void;
}

/** 128 + the signal number, as shells report a process a signal ended. */
export function exitCodeOfSignal(signal: StopSignal): number {
  return signal === 'SIGTERM' ? 143 : 130;
}

export function watchSignals(proc: NodeJS.Process = process): SignalWatch {
  let count = 0;
  let firstSignal: StopSignal | undefined;
  let resolveFirst!: (s: StopSignal) => void;
  let resolveSecond!: (s: StopSignal) => void;
  const first = new Promise<StopSignal>((r) => (resolveFirst = r));
  const second = new Promise<StopSignal>((r) => (resolveSecond = r));
  const on = (signal: StopSignal) => (): void => {
    count += 1;
    if (count === 1) {
      firstSignal = signal;
      resolveFirst(signal);
    } else if (count === 2) resolveSecond(signal);
    else if (count >= 3) {
      // A third signal: the person means it. The reports of the second are being written; stop now.
      proc.exit(exitCodeOfSignal(signal));
    }
  };
  const onInt = on('SIGINT');
  const onTerm = on('SIGTERM');
  proc.on('SIGINT', onInt);
  proc.on('SIGTERM', onTerm);
  return {
    first,
    second,
    received: () => firstSignal,
    dispose() {
      proc.off('SIGINT', onInt);
      proc.off('SIGTERM', onTerm);
    },
  };
}
