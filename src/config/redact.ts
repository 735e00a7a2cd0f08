// Secrets never leave the process in clear: every report, record and message goes through a Redactor.
// The spec identifies a key "by its first 12 characters only" (Authentication, rule 9), so that is the
// form shown; curl reproductions use shell variables instead so they stay copy-pasteable.

export interface NamedSecret {
  value: string;
  /** Shell variable a person exports to reproduce a request, e.g. SVC_PARTNER_KEY. */
  envVar: string;
}

export interface Redactor {
  /** Replaces every occurrence of every secret by its first 12 characters + '…'; also any `spk_live_`/`sot_`+48-hex lookalike. */
  text(s: string): string;
  /** Deep copy with every string redacted (objects, arrays; bigint and other values kept). */
  value<T>(v: T): T;
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

const PREVIEW_CHARS = 12;

/**
 * First 12 characters + '…'. A secret too short for that to hide most of it (a hand-made webhook
 * secret, say) shows at most half of its characters instead.
 */
export function previewSecret(s: string): string {
  const shown = Math.min(PREVIEW_CHARS, Math.floor(s.length / 2));
  return `${s.slice(0, shown)}…`;
}

/** Partner keys and org tokens by their spec format, even when nobody told us about them. */
const LOOKALIKE = String.raw`(?:spk_live_|sot_)[0-9a-fA-F]{48,}`;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

function caseFreeHex(hex: string): string {
  return hex.replace(/[a-f]/g, (c) => `[${c}${c.toUpperCase()}]`);
}

/**
 * A pattern for `secret` as written literally, with any character JSON-escaped (`\u0073`, `\"`,
 * `\/`) or percent-encoded: a hostile target may echo a key back in any of these forms.
 */
function secretPattern(secret: string): string {
  let out = '';
  for (const ch of secret) {
    const code = ch.codePointAt(0) ?? 0;
    const alternatives = [escapeRegExp(ch)];
    if (code <= 0xffff) alternatives.push(String.raw`\\u` + caseFreeHex(code.toString(16).padStart(4, '0')));
    if (ch === '"' || ch === '\\' || ch === '/') alternatives.push(escapeRegExp(`\\${ch}`));
    for (const byte of Buffer.from(ch, 'utf8')) {
      alternatives.push('%' + caseFreeHex(byte.toString(16).padStart(2, '0')));
    }
    out += `(?:${alternatives.join('|')})`;
  }
  return out;
}

/** Secrets this short cannot be redacted safely: every message would be riddled with their previews. */
export const MIN_SECRET_LENGTH = 8;

/**
 * The parts of base64 (and base64url) text that any occurrence of `secret` produces, whatever its
 * offset in the encoded bytes (three alignments): an `Authorization: Basic base64(key:)` header, a
 * base64 body in a HAR. Only characters fully determined by the secret's own bytes are kept.
 */
function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const cores = new Set<string>();
  for (let pad = 0; pad < 3; pad++) {
    const encoded = Buffer.concat([Buffer.alloc(pad, 0), bytes])
      .toString('base64')
      .replace(/=+$/, '');
    // Characters touched by the padding bytes at the start, or by the unknown bytes after the end.
    const head = Math.ceil((pad * 8) / 6);
    const tail = Math.floor(((pad + bytes.length) * 8) / 6);
    const core = encoded.slice(head, tail);
    if (core.length >= MIN_SECRET_LENGTH) {
      cores.add(core);
      cores.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  return [...cores];
}

/** Reverses the encodings `secretPattern` accepts, to find which secret a match is. */
function decodeMatch(m: string): string {
  const unescaped = m
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\(["\\/])/g, '$1');
  if (!unescaped.includes('%')) return unescaped;
  try {
    return decodeURIComponent(unescaped);
  } catch {
    return unescaped;
  }
}

function uniqueEnvVar(wanted: string, taken: Set<string>): string {
  if (!taken.has(wanted)) return wanted;
  for (let n = 2; ; n++) {
    const candidate = `${wanted}_${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

function singleQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function isPlainContainer(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

export function createRedactor(initial: NamedSecret[]): Redactor {
  const byValue = new Map<string, NamedSecret>();
  /** Lower-cased value → secret: a secret echoed in another letter case is the same secret. */
  const byFolded = new Map<string, NamedSecret>();
  /** A base64 core → the secret it encodes. */
  const byCore = new Map<string, NamedSecret>();
  const listeners = new Set<(secret: NamedSecret) => void>();
  let pattern = new RegExp(LOOKALIKE, 'g');
  let literal: RegExp | undefined;

  function rebuild(): void {
    // Longest first, so a secret that contains another is replaced whole.
    const values = [...byValue.keys()].sort((a, b) => b.length - a.length);
    byCore.clear();
    for (const v of values) for (const core of base64Cores(v)) byCore.set(core, byValue.get(v)!);
    const cores = [...byCore.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
    // Case-insensitive: an upper-cased key (SPK_LIVE_…) is the key. Base64 cores are matched the same
    // way: a false match over dozens of characters is not a risk worth a leak.
    pattern = new RegExp([...values.map(secretPattern), ...cores, LOOKALIKE].join('|'), 'gi');
    literal = values.length > 0 ? new RegExp(values.map(escapeRegExp).join('|'), 'g') : undefined;
  }

  function register(secret: NamedSecret): NamedSecret | undefined {
    // An empty value would match everywhere; it is no secret anyway.
    if (secret.value === '' || byValue.has(secret.value)) return undefined;
    const taken = new Set([...byValue.values()].map((s) => s.envVar));
    const named = { value: secret.value, envVar: uniqueEnvVar(secret.envVar, taken) };
    byValue.set(named.value, named);
    byFolded.set(named.value.toLowerCase(), named);
    return named;
  }

  for (const s of initial) register(s);
  rebuild();

  function text(s: string): string {
    if (s === '') return s;
    return s.replace(pattern, (m) => {
      const encoded = byCore.get(m);
      if (encoded) return `[base64 of ${previewSecret(encoded.value)}]`;
      const secret = byValue.get(m) ?? byValue.get(decodeMatch(m)) ?? byFolded.get(decodeMatch(m).toLowerCase());
      const preview = previewSecret(secret ? secret.value : m);
      // A match found JSON-escaped sits inside a JSON string: keep that string valid.
      return m.includes('\\') ? JSON.stringify(preview).slice(1, -1) : preview;
    });
  }

  function value<T>(v: T): T {
    if (typeof v === 'string') return text(v) as T;
    if (Array.isArray(v)) return v.map((item: unknown) => value(item)) as T;
    if (isPlainContainer(v)) {
      const out: Record<string, unknown> = {};
      for (const [k, item] of Object.entries(v)) out[text(k)] = value(item);
      return out as T;
    }
    return v;
  }

  function shell(s: string): string {
    if (s === '') return `''`;
    if (!literal) return singleQuote(text(s));
    const words: string[] = [];
    let last = 0;
    literal.lastIndex = 0;
    for (const m of s.matchAll(literal)) {
      const at = m.index ?? 0;
      if (at > last) words.push(singleQuote(text(s.slice(last, at))));
      words.push(`"$${byValue.get(m[0])?.envVar ?? 'SECRET'}"`);
      last = at + m[0].length;
    }
    if (last < s.length) words.push(singleQuote(text(s.slice(last))));
    return words.join('');
  }

  return {
    text,
    value,
    shell,
    add(secret) {
      const named = register(secret);
      if (!named) return;
      rebuild();
      for (const listener of listeners) listener(named);
    },
    onAdd(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    secrets: () => [...byValue.values()],
  };
}
