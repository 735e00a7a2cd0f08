// Secrets never leave the process in clear: every report, record and message goes through a Redactor.
// The spec identifies a key "by its first 12 characters only" (Authentication, rule 9), so that is the
// form shown; curl reproductions use shell variables instead so they stay copy-pasteable.

import { SHOWN_SECRET_CHARS } from '../secret-shapes.js';
import { buildAutomaton } from './secret-automaton.js';
import { redactValue } from './redact-value.js';
import { markRedacted, type Redacted } from './redacted.js';
import { MIN_SECRET_LENGTH, secretForms, type SecretForm } from './secret-forms.js';
import {
  createScanner,
  findSecretRegions,
  markReadable,
  readableTable,
  LOOKALIKE_TAG,
  type Region,
  type TaggedAutomaton,
  type Via,
} from './secret-scan.js';

export interface NamedSecret {
  value: string;
  /** Shell variable a person exports to reproduce a request, e.g. SVC_PARTNER_KEY. */
  envVar: string;
}

export interface Redactor {
  /**
   * Replaces every occurrence of every secret, in any form secret-forms.ts and secret-scan.ts know, by
   * its first 12 characters + '…'; also any `spk_live_`/`sot_`+48-hex lookalike. Linear in the text.
   */
  text(s: string): string;
  /** Deep copy with every string redacted (objects, arrays; bigint and other values kept): the only maker of Redacted. */
  value<T>(v: T): Redacted<T>;
  /** Adds a secret learned at run time (e.g. an org token from a redemption). */
  add(secret: NamedSecret): void;
  /**
   * For curl: one shell word equal to `s` once the variables are exported. Literal text is
   * single-quoted, each secret becomes "$ENVVAR" (org tokens learned at run time get SVC_ORG_TOKEN,
   * SVC_ORG_TOKEN_2, …), lookalikes and escaped forms of secrets are shown as previews.
   */
  shell(s: string): string;
  /** Calls `listener` after every secret added later (records made before can be redacted again). */
  onAdd(listener: (secret: NamedSecret) => void): () => void;
  /** The secrets known so far, with their final variable names. */
  secrets(): readonly NamedSecret[];
}

const PREVIEW_CHARS = SHOWN_SECRET_CHARS;
/** Texts of MEMO_MIN_CHARS to MEMO_MAX_CHARS are remembered: MEMO_ENTRIES of them, MEMO_BUDGET_CHARS in all. */
const MEMO_MIN_CHARS = 256;
const MEMO_MAX_CHARS = 64 * 1024;
const MEMO_ENTRIES = 512;
const MEMO_BUDGET_CHARS = 2 * 1024 * 1024;
/**
 * Shorter texts are remembered apart, so they never push the long ones out: header values, URLs and
 * small bodies repeat from one exchange to the next (a rate-limit burst sends a thousand alike), and
 * reading each for every disguise of every secret again was most of what a burst cost.
 */
const SHORT_MEMO_ENTRIES = 4096;

/** Texts and their redaction, the oldest forgotten first. */
interface Memo {
  get(s: string): string | undefined;
  set(s: string, redacted: string): void;
  clear(): void;
}

function createMemo(maxEntries: number, maxChars: number): Memo {
  const known = new Map<string, string>();
  let chars = 0;
  return {
    get: (s) => known.get(s),
    set(s, redacted) {
      while (known.size > 0 && (known.size >= maxEntries || chars + s.length > maxChars)) {
        const [oldest] = known.keys();
        if (oldest === undefined) break;
        chars -= oldest.length;
        known.delete(oldest);
      }
      known.set(s, redacted);
      chars += s.length;
    },
    clear() {
      known.clear();
      chars = 0;
    },
  };
}

/**
 * First 12 characters + '…'. A secret too short for that to hide most of it (a hand-made webhook
 * secret, say) shows at most half of its characters instead.
 */
export function previewSecret(s: string): string {
  const shown = Math.min(PREVIEW_CHARS, Math.floor(s.length / 2));
  return `${s.slice(0, shown)}…`;
}

export { MIN_SECRET_LENGTH } from './secret-forms.js';
export { DEEP_VALUE_MARKER, MAX_VALUE_DEPTH } from './redact-value.js';

/** How a region found other than as written names the disguise. */
const DISGUISE_LABELS: Record<Exclude<Via, 'text'>, string> = {
  reversed: 'reversed',
  rot13: 'rot13 of',
  base64: 'base64 of',
  base32: 'base32 of',
  hex: 'hex of',
};

/** `wanted`, else `wanted_2`, `wanted_3`, …: the next suffix of each name is remembered, so n names cost O(n). */
function uniqueEnvVar(wanted: string, taken: Set<string>, nextSuffix: Map<string, number>): string {
  if (!taken.has(wanted)) return wanted;
  for (let n = nextSuffix.get(wanted) ?? 2; ; n++) {
    const candidate = `${wanted}_${n}`;
    if (!taken.has(candidate)) {
      nextSuffix.set(wanted, n + 1);
      return candidate;
    }
  }
}

function singleQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * Secrets in groups whose sizes double (a binary counter of automata): a new secret is a group of one,
 * and two groups of a size merge into one automaton rebuilt from both. Each form is rebuilt O(log n)
 * times over n secrets learned one by one (amortised), and a text is read by at most log2(n) + 1
 * automata.
 */
interface Group {
  formIds: number[];
  tagged: TaggedAutomaton;
}

function buildGroup(formIds: number[], forms: readonly Form[]): Group {
  const texts = formIds.map((id) => forms[id]?.text ?? '');
  return { formIds, tagged: { automaton: buildAutomaton(texts), tags: formIds } };
}

interface Form extends SecretForm {
  secret: NamedSecret;
}

/** The secrets known, each form of each, and the automata that find them. */
interface SecretStore {
  byValue: Map<string, NamedSecret>;
  envVars: Set<string>;
  nextSuffix: Map<string, number>;
  /** Every character of every form: what the scanner reads. */
  readable: ReturnType<typeof readableTable>;
  forms: Form[];
  groups: Group[];
}

/** Adds a secret and its forms; undefined when it adds nothing (empty, or known already). */
function register(store: SecretStore, secret: NamedSecret): NamedSecret | undefined {
  const { byValue, envVars, forms, readable } = store;
  // An empty value would match everywhere; it is no secret anyway.
  if (secret.value === '' || byValue.has(secret.value)) return undefined;
  const named = { value: secret.value, envVar: uniqueEnvVar(secret.envVar, envVars, store.nextSuffix) };
  envVars.add(named.envVar);
  byValue.set(named.value, named);
  const ids: number[] = [];
  for (const form of secretForms(named.value)) {
    ids.push(forms.push({ ...form, secret: named }) - 1);
    for (let i = 0; i < form.text.length; i++) markReadable(readable, form.text.charCodeAt(i));
  }
  if (ids.length === 0) return named;
  store.groups.push(buildGroup(ids, forms));
  for (;;) {
    const last = store.groups.at(-1);
    const before = store.groups.at(-2);
    if (!last || !before || before.formIds.length > last.formIds.length) break;
    store.groups = [...store.groups.slice(0, -2), buildGroup([...before.formIds, ...last.formIds], forms)];
  }
  return named;
}

function scannerOf(store: SecretStore): ReturnType<typeof createScanner> {
  return createScanner(
    store.groups.map((g) => g.tagged),
    store.readable,
  );
}

/** What a region shows instead of the secret: at most its first 12 characters, and how it was disguised. */
function shownFor(s: string, region: Region, forms: readonly Form[]): string {
  const found = s.slice(region.start, region.end);
  const form = region.tag === LOOKALIKE_TAG ? undefined : forms[region.tag];
  // A lookalike's preview is its first characters as read (decoded, or reversed back): 12 at most.
  const preview = form
    ? previewSecret(form.secret.value)
    : region.preview !== undefined
      ? `${region.preview}…`
      : previewSecret(found);
  const kind = region.via !== 'text' ? region.via : form?.kind;
  const label = kind === undefined || kind === 'plain' ? preview : `[${DISGUISE_LABELS[kind]} ${preview}]`;
  // A match found JSON-escaped sits inside a JSON string: keep that string valid.
  return found.includes('\\') ? JSON.stringify(label).slice(1, -1) : label;
}

/** `s` with each region replaced by what it shows (shownFor). */
function withRegionsShown(s: string, regions: readonly Region[], forms: readonly Form[]): string {
  let out = '';
  let last = 0;
  for (const region of regions) {
    out += s.slice(last, region.start) + shownFor(s, region, forms);
    last = region.end;
  }
  return out + s.slice(last);
}

/** Redactor.shell of a non-empty `s` whose regions are given: literal text quoted, a known secret as its variable. */
function shellWord(s: string, regions: readonly Region[], { byValue, forms }: SecretStore): string {
  const words: string[] = [];
  let last = 0;
  for (const region of regions) {
    if (region.start > last) words.push(singleQuote(s.slice(last, region.start)));
    const found = s.slice(region.start, region.end);
    const secret = byValue.get(found);
    words.push(secret ? `"$${secret.envVar}"` : singleQuote(shownFor(s, region, forms)));
    last = region.end;
  }
  if (last < s.length) words.push(singleQuote(s.slice(last)));
  return words.join('');
}

export function createRedactor(initial: NamedSecret[]): Redactor {
  const store: SecretStore = {
    byValue: new Map(),
    envVars: new Set(),
    nextSuffix: new Map(),
    readable: readableTable(),
    forms: [],
    groups: [],
  };
  const { byValue, forms } = store;
  const listeners = new Set<(secret: NamedSecret) => void>();

  for (const s of initial) register(store, s);
  let scanner = scannerOf(store);

  function regionsOf(s: string): Region[] {
    return findSecretRegions(s, scanner);
  }

  /**
   * The last texts redacted, while no secret is added: a check's result is redacted whole when it ends,
   * and the exchanges of a shared setup step (recorded, already redacted) are in several of them.
   */
  const recent = createMemo(MEMO_ENTRIES, MEMO_BUDGET_CHARS);
  const recentShort = createMemo(SHORT_MEMO_ENTRIES, SHORT_MEMO_ENTRIES * MEMO_MIN_CHARS);
  function text(s: string): string {
    if (s.length < MIN_SECRET_LENGTH) return s;
    if (s.length > MEMO_MAX_CHARS) return redactText(s);
    const memo = s.length < MEMO_MIN_CHARS ? recentShort : recent;
    const known = memo.get(s);
    if (known !== undefined) return known;
    const out = redactText(s);
    memo.set(s, out);
    return out;
  }

  function redactText(s: string): string {
    const regions = regionsOf(s);
    return regions.length === 0 ? s : withRegionsShown(s, regions, forms);
  }

  function value<T>(v: T): Redacted<T> {
    return markRedacted(redactValue(v, text));
  }

  return {
    text,
    value,
    shell: (s) => (s === '' ? `''` : shellWord(s, regionsOf(s), store)),
    add(secret) {
      const named = register(store, secret);
      if (!named) return;
      scanner = scannerOf(store);
      recent.clear();
      recentShort.clear();
      for (const listener of listeners) listener(named);
    },
    onAdd(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    secrets: () => [...byValue.values()],
  };
}
