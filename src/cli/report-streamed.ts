// `report` of inputs too large to hold together (10,000 results.json files of 212 checks each are over two
// million checks): each input is read, folded into the dossier's head (each part's own fields, counts
// and verdict) and let go; the reporters then read them again, a part at a time
// (Reporter.onDossierEnd) from a spool of what was read (part-spool.ts). What is held is the head and
// one input, so memory follows the largest input, not their number; each input is read once, so a
// file changed under `report` cannot be counted one way and listed another.

import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Redactor } from '../config/redact.js';
import { partHead, partVerdict, type PartVerdict } from '../report/dossier.js';
import type { DossierPart, Notice, RunResult } from '../runner/results.js';
import { MAX_RESULTS_FILE_BYTES, readResultsFile } from './read-results.js';
import { openPartSpool } from './part-spool.js';
import { baselineIdsIn, recomputedInput, settledPart, settlesAgain } from './report-parts.js';
import type { ReportSettings } from './report-options.js';
import type { SignalWatch } from './signals.js';
import { reshapeRedacted, type Redacted } from '../config/redacted.js';

/**
 * Inputs of more bytes than this together are read one at a time. Up to it they are held together as
 * one input as large would be (within MAX_RESULTS_FILE_BYTES), and reported exactly as before.
 */
export const HOLD_INPUTS_UP_TO_BYTES = MAX_RESULTS_FILE_BYTES;

/** Whether `report` reads these inputs one at a time: several, of more bytes together than it holds. */
export function readsOneAtATime(files: readonly string[]): boolean {
  if (files.length < 2) return false;
  let total = 0;
  for (const file of files) {
    try {
      total += statSync(resolve(file)).size;
    } catch {
      // Unreadable: the reading says so, in one line, whichever way it reads.
    }
    if (total > HOLD_INPUTS_UP_TO_BYTES) return true;
  }
  return false;
}

export interface FoldedInputs {
  /** How many inputs were read (fewer than given after a signal). */
  read: number;
  /** Each part's head, redacted as the part it was read from. */
  heads: Redacted<DossierPart>[];
  verdicts: PartVerdict[];
  /** The notices of parts whose stored numbers were not believed. */
  notices: Notice[];
  /** Every part of the inputs read, from the spool on each pass, settled as in the head. */
  parts: Iterable<Redacted<RunResult>>;
  /** Removes the spool: once the reports are written. */
  dispose(): void;
}

export interface FoldOptions {
  settings: ReportSettings;
  signals: SignalWatch;
  redactor: Redactor;
  /** Called after each input, on a turn of the event loop (so that a signal is seen between two). */
  afterEach: (read: number) => Promise<void>;
}

export async function foldInputs(files: readonly string[], opts: FoldOptions): Promise<FoldedInputs> {
  const { settings, signals, redactor } = opts;
  const spool = openPartSpool();
  const notices: Notice[] = [];
  const namedByAny = new Set<string>();
  const heads: Redacted<DossierPart>[] = [];
  const verdicts: PartVerdict[] = [];
  const fold = (part: Redacted<RunResult>): void => {
    heads.push(reshapeRedacted(part, partHead));
    verdicts.push(partVerdict(part));
  };
  // Without --baseline or --strict a part is as recomputed: its head is folded on this reading.
  const foldNow = !settlesAgain(settings);
  let read = 0;
  try {
    // The first input is always read: an interrupted report still has a certification to show.
    for (const file of files) {
      if (read > 0 && signals.received()) break;
      // The file name is shown in notices: redacted like the content (a name can hold a secret too).
      const input = recomputedInput(readResultsFile(resolve(file), file, redactor), redactor.text(file));
      notices.push(...input.notices);
      for (const part of input.parts) {
        for (const id of baselineIdsIn(part, settings)) namedByAny.add(id);
        spool.add(part);
        if (foldNow) fold(part);
      }
      read++;
      await opts.afterEach(read);
    }
  } catch (e) {
    spool.dispose();
    throw e;
  }
  const parts: Iterable<Redacted<RunResult>> = {
    *[Symbol.iterator]() {
      let index = 0;
      for (const part of spool.parts) yield settledPart(part, index++, settings, namedByAny);
    },
  };
  // With them, part by part once every baseline id named by some part is known.
  if (!foldNow) for (const part of parts) fold(part);
  return { read, heads, verdicts, notices, parts, dispose: () => spool.dispose() };
}
