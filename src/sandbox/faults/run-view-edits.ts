// Edits of a run as the API shows it (the `runView` point): the faults that misstate a run read change the
// rendered body, each one list or member, and leave the rest as rendered.
import { RawNumber } from '../json.js';

type View = Record<string, unknown>;
type Item = Record<string, unknown>;

function items(value: unknown): Item[] {
  return Array.isArray(value) ? (value as Item[]) : [];
}

/** The view with each candidate replaced by what `edit` makes of a copy of it. */
export function eachCandidate(view: View, edit: (c: Item) => void): View {
  return { ...view, candidates: items(view.candidates).map((c) => mutated(c, edit)) };
}

/** The view with each notice replaced by what `edit` makes of a copy of it. */
export function eachNotice(view: View, edit: (n: Item) => void): View {
  return { ...view, notices: items(view.notices).map((n) => mutated(n, edit)) };
}

/** The view with its progress member replaced by what `edit` makes of a copy of it. */
export function progressEdited(view: View, edit: (p: Item) => void): View {
  return { ...view, progress: mutated(view.progress as Item, edit) };
}

function mutated(item: Item, edit: (x: Item) => void): Item {
  const copy = { ...item };
  edit(copy);
  return copy;
}

/** The decimal digits of a candidate id as rendered (an int64 token). */
export function idDigits(id: unknown): string {
  return id instanceof RawNumber ? id.text : String(id);
}
