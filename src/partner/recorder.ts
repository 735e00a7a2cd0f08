// Records the partner's traffic from the sandbox's observations. The input types mirror the sandbox's
// observation shapes structurally: src/partner never imports the sandbox (the CLI connects the two).

import { createHash } from 'node:crypto';
import { matchWireEndpoint } from '../api/endpoints.js';
import { parseJsonExactIntegers } from '../json/lossless.js';
import { canonical } from './rules/retry-chains.js';
import type { BodyRecord, Endpoint, InjectionId, PartnerRequest, Traffic, WebhookDelivery } from './traffic.js';

export interface ExchangeObservation {
  kind: 'exchange';
  request: {
    id: number;
    method: string;
    path: string;
    headers: Record<string, string | string[] | undefined>;
    body?: Buffer;
  };
  receivedAt: number;
  answeredAt: number;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: Buffer;
  dropped: boolean;
  simulated: boolean;
}

/** One delivery attempt as the sandbox's hook saw it: a WebhookDelivery of the judged traffic. */
interface AttemptObservation extends WebhookDelivery {
  kind: 'webhook-attempt';
}

export type Observation = ExchangeObservation | AttemptObservation;

/** Answers beyond this are kept cut (the sandbox's own answers are small; evidence stays small). */
const KEEP_BYTES = 256 * 1024;

/**
 * At most this many request bodies (text and parsed JSON) are held in memory: a flood of
 * 6,000 × 250 KB POSTs kept every body and its parsed JSON and exhausted the heap. A normal session
 * sends a few hundred requests, so nothing of it is evicted; past this, the bodies the rules need least
 * go first (see `evictionClass`), and every request keeps its metadata (method, path, status, times,
 * headers) and its BodyRecord (size, SHA-256, comparison key).
 *
 * What a rule sees of an evicted body: `bodyText` '', `json` undefined, `body.kept` 'evicted', and
 * `body.bytes`, `body.sha256` and `body.key` as recorded. The retry rules compare `body.key`, so they
 * judge an evicted body as before; the decisions rules read no body there (nothing is evicted from
 * decisions calls before every other body is); `secrets.not-in-body` (a warning only) cannot look into
 * an evicted body; the evidence of a report shows '' for it.
 */
export const MAX_KEPT_BODIES = 2_000;

/**
 * Of one body, at most its first this many bytes are held (with its full size and SHA-256): a partner's
 * requests are a few KB, and evidence needs no more. A body cut at the cap is not parsed as JSON (`json`
 * undefined) and compares by the SHA-256 of its bytes. The same holds of a request whose auth failed
 * (401/403): nothing of it is kept beyond the cap.
 */
export const BODY_CAP_BYTES = 64 * 1024;

/**
 * And at most this many bytes of body text in all (their parsed JSON is a few times more): 2,000 bodies
 * at the cap would be 128 MiB of text. The oldest bodies of the lowest class are evicted first.
 */
const MAX_KEPT_BODY_BYTES = 8 * 1024 * 1024;

/** Sixteen digits in a row: the body may hold an integer past 2^53, which JSON.parse would round. */
const MAYBE_UNSAFE_INTEGER = /\d{16}/;

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    // Candidate ids are int64: read through a double, two neighbours above 2^53 would be one candidate
    // to every rule that compares or keys them. The exact parser is slower, so only where it matters.
    const parsed: unknown = MAYBE_UNSAFE_INTEGER.test(text) ? parseJsonExactIntegers(text) : JSON.parse(text);
    return parsed;
  } catch {
    return undefined;
  }
}

/** The endpoint of the table a request is for ('other' for any other path), and the run its path names. */
function endpointOf(method: string, path: string): { endpoint: Endpoint; runId?: string } {
  const m = matchWireEndpoint(method, path);
  if (!m) return { endpoint: 'other' };
  return { endpoint: m.name, ...('run_id' in m.params ? { runId: m.params.run_id } : {}) };
}

/**
 * Of one header value, at most this many characters are held; a longer one is kept as its head, its
 * size and a hash of the whole (`capHeader`), so two values still compare equal exactly when they were
 * (the retry rules compare credentials and media types between a refusal and its repeat). Every header a
 * rule reads is a few dozen characters in a real client: nothing a rule judges is cut. A flood of requests
 * each carrying a 15 KB header kept every header in full and exhausted the heap.
 */
export const HEADER_VALUE_CAP = 256;
/** Paths and query strings are kept up to this length, the same way. */
const PATH_CAP = 2048;
/** Header names are kept up to this length, the same way. */
const HEADER_NAME_CAP = 128;
/** At most this many headers of one request are held; the rest are counted (`headersDropped`). */
export const MAX_KEPT_HEADERS = 48;
/** What is held of a cut value or name: its first characters, then the size and hash. */
const CAPPED_HEAD = 64;

/** A character that may belong to a secret in one of its forms (base64, %-, \u-, HTML-reference-encoded). */
const SECRET_CHAR = /[^\s"'<>()[\]{},]/;

/**
 * The first CAPPED_HEAD characters of a value, less the word the cut goes through: a secret there (or
 * an encoded form of it) would keep its first characters past the 12 a preview shows, and no redaction
 * can recognise a secret from a piece of it. What is kept is whole words, which the reports' redaction
 * reads as usual.
 */
export function headOf(value: string): string {
  if (value.length <= CAPPED_HEAD) return value;
  let end = CAPPED_HEAD;
  if (SECRET_CHAR.test(value[end]!)) while (end > 0 && SECRET_CHAR.test(value[end - 1]!)) end--;
  return value.slice(0, end);
}

function capped(value: string, cap: number): string {
  if (value.length <= cap) return value;
  const hash = createHash('sha256').update(value).digest('hex').slice(0, 32);
  // Copied through a Buffer: a slice of a string (and a concatenation of one) can keep the whole
  // original alive in V8, which would hold every 15 KB header the cap is meant to drop.
  const text = `${headOf(value)}… [${Buffer.byteLength(value)} bytes, sha256 ${hash}…]`;
  return Buffer.from(text, 'utf8').toString('utf8');
}

/**
 * The same short strings (header names and values, small answers) recur in nearly every request: one copy
 * of each is shared, so a flood's records hold references, not copies. Bounded: emptied when full.
 */
function createInterner(max: number): (s: string) => string {
  const seen = new Map<string, string>();
  return (s) => {
    if (s.length > HEADER_VALUE_CAP * 2) return s;
    const held = seen.get(s);
    if (held !== undefined) return held;
    if (seen.size >= max) seen.clear();
    seen.set(s, s);
    return s;
  };
}

function flatHeaders(
  h: Record<string, string | string[] | undefined>,
  intern: (s: string) => string,
): { headers: Record<string, string>; dropped: number } {
  const out: Record<string, string> = {};
  let kept = 0;
  let dropped = 0;
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    if (kept >= MAX_KEPT_HEADERS) {
      dropped += 1;
      continue;
    }
    kept += 1;
    const value = Array.isArray(v) ? v.join(', ') : v;
    out[intern(capped(k.toLowerCase(), HEADER_NAME_CAP))] = intern(capped(value, HEADER_VALUE_CAP));
  }
  return { headers: out, dropped };
}

/**
 * The parsed answer is kept where a rule reads it: a success (run ids, statuses, notices, the org token
 * of a redeem), a decisions refusal (its `allowed`), the webhook test's answer. Any other refusal is
 * judged by its status and error code, kept apart; its text stays for the evidence.
 */
function answerJsonNeeded(endpoint: Endpoint, status: number): boolean {
  return (status >= 200 && status < 300) || endpoint === 'decisions' || endpoint === 'webhook-test';
}

function text(buf: Buffer | undefined): string {
  if (!buf || buf.length === 0) return '';
  return buf.subarray(0, KEEP_BYTES).toString('utf8');
}

const sha256 = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');

/**
 * The order in which bodies are evicted: 0 first. Auth failures (no rule reads their body but the
 * secrets warning; a flood of unauthenticated requests is mostly these), then the bodies the rules
 * compare only by key, and last the decisions and run starts whose JSON the rules and stats read.
 */
function evictionClass(endpoint: Endpoint, status: number): 0 | 1 | 2 {
  if (status === 401 || status === 403) return 0;
  return endpoint === 'decisions' || endpoint === 'runs-start' ? 2 : 1;
}

const EMPTY_HASH = sha256(Buffer.alloc(0));
const EMPTY_BODY: BodyRecord = Object.freeze({ bytes: 0, sha256: EMPTY_HASH, key: `raw:${EMPTY_HASH}`, kept: 'full' });

/** Reads a request body: what is held of it and its record. The Buffer itself is never retained. */
function readBody(buf: Buffer | undefined): { text: string; json: unknown; record: BodyRecord } {
  // Most requests (every read) have none: one shared record, not three hashes each.
  if (!buf || buf.length === 0) return { text: '', json: undefined, record: EMPTY_BODY };
  const bytes = buf.length;
  const full = buf;
  const rawHash = sha256(full);
  if (bytes > BODY_CAP_BYTES) {
    // Copied to a string: a subarray would keep the whole received Buffer alive.
    return {
      text: full.subarray(0, BODY_CAP_BYTES).toString('utf8'),
      json: undefined,
      record: { bytes, sha256: rawHash, key: `raw:${rawHash}`, kept: 'capped' },
    };
  }
  const bodyText = full.toString('utf8');
  const json = parseJson(bodyText);
  const key = json !== undefined ? `json:${sha256(canonical(json))}` : `raw:${rawHash}`;
  return { text: bodyText, json, record: { bytes, sha256: rawHash, key, kept: 'full' } };
}

/** Bounds the bodies held: at most MAX_KEPT_BODIES and MAX_KEPT_BODY_BYTES of text, evicting by class, oldest first. */
function createBodyBudget(): { hold(r: PartnerRequest, cls: 0 | 1 | 2): void } {
  const queues: [PartnerRequest[], PartnerRequest[], PartnerRequest[]] = [[], [], []];
  const heads = [0, 0, 0];
  let count = 0;
  let bytes = 0;
  const evictOne = (): boolean => {
    for (let c = 0; c < 3; c++) {
      const q = queues[c]!;
      if (heads[c]! < q.length) {
        const r = q[heads[c]!]!;
        heads[c]! += 1;
        if (heads[c]! > 1024 && heads[c]! * 2 > q.length) {
          q.splice(0, heads[c]!);
          heads[c] = 0;
        }
        count -= 1;
        bytes -= r.bodyText.length;
        r.bodyText = '';
        delete r.json;
        if (r.body) r.body = { ...r.body, kept: 'evicted' };
        return true;
      }
    }
    return false;
  };
  return {
    hold(r, cls) {
      if (r.bodyText === '') return;
      queues[cls].push(r);
      count += 1;
      bytes += r.bodyText.length;
      while ((count > MAX_KEPT_BODIES || bytes > MAX_KEPT_BODY_BYTES) && evictOne());
    },
  };
}

/**
 * At most this many requests are recorded and judged; the ones after them are answered by the sandbox
 * and only counted (`unrecorded`), and the results say so. A normal session sends a few hundred; a
 * flood of 60,000 took seconds to judge (and twice that when a signal came during a live judgement),
 * against the 2 s from a signal to the reports, and every record holds memory for the session's life.
 * With 50,000 the final judgement and reports took 1.5 to 2.2 s after a signal on two loaded cores.
 */
export const MAX_RECORDED_REQUESTS = 30_000;

/** Requests past MAX_RECORDED_REQUESTS: answered, counted, neither held nor judged. */
interface Unrecorded {
  requests: number;
  rateLimited: number;
}

export interface Recorder {
  /** Feed one observation of the sandbox; `injected` names the injection that answered it, if any. */
  add(observation: Observation, injected?: InjectionId): void;
  traffic(): Traffic;
  /** The requests answered beyond the bound on recorded ones (zero counts when none). */
  unrecorded(): Unrecorded;
  /** The bound on recorded requests this recorder keeps. */
  readonly maxRequests: number;
  /** Called after every new record (the live checklist re-judges). */
  onChange(listener: () => void): void;
}

/** How many distinct short strings are shared at once (a few hundred distinct values in a normal session). */
const INTERNED_STRINGS = 4096;

export function createRecorder(opts: { maxRequests?: number } = {}): Recorder {
  const maxRequests = opts.maxRequests ?? MAX_RECORDED_REQUESTS;
  const beyond: Unrecorded = { requests: 0, rateLimited: 0 };
  const requests: PartnerRequest[] = [];
  const deliveries: WebhookDelivery[] = [];
  const listeners: Array<() => void> = [];
  const budget = createBodyBudget();
  const intern = createInterner(INTERNED_STRINGS);
  return {
    maxRequests,
    add(o, injected) {
      if (o.kind === 'exchange' && requests.length >= maxRequests) {
        // Nothing of it is held or parsed, and nothing is re-judged for it.
        beyond.requests += 1;
        if (!o.dropped && o.status === 429) beyond.rateLimited += 1;
        return;
      }
      if (o.kind === 'exchange') {
        // Capped like a header (a request line may be kilobytes): equal paths stay equal, by their hash.
        const q = o.request.path.indexOf('?');
        const path = capped(q < 0 ? o.request.path : o.request.path.slice(0, q), PATH_CAP);
        const query = q < 0 ? '' : capped(o.request.path.slice(q + 1), PATH_CAP);
        const body = readBody(o.request.body);
        const responseText = o.dropped ? '' : text(o.responseBody);
        const responseJson = o.dropped ? undefined : parseJson(responseText);
        const errorCode =
          !o.dropped &&
          o.status >= 300 &&
          typeof responseJson === 'object' &&
          responseJson !== null &&
          'error' in responseJson &&
          typeof responseJson.error === 'string'
            ? responseJson.error
            : undefined;
        const where = endpointOf(o.request.method, path);
        const flat = flatHeaders(o.request.headers, intern);
        const responseHeaders: Record<string, string> = {};
        if (!o.dropped)
          for (const [k, v] of Object.entries(o.responseHeaders))
            responseHeaders[intern(capped(k, HEADER_NAME_CAP))] = intern(capped(v, HEADER_VALUE_CAP));
        const record: PartnerRequest = {
          id: o.request.id,
          at: o.receivedAt,
          answeredAt: o.answeredAt,
          method: o.request.method,
          path,
          query,
          endpoint: where.endpoint,
          ...(where.runId !== undefined ? { runId: where.runId } : {}),
          headers: flat.headers,
          ...(flat.dropped > 0 ? { headersDropped: flat.dropped } : {}),
          bodyText: body.text,
          ...(body.json !== undefined ? { json: body.json } : {}),
          body: body.record,
          status: o.dropped ? 0 : o.status,
          lost: o.dropped,
          responseHeaders,
          responseText: intern(responseText),
          ...(answerJsonNeeded(where.endpoint, o.status) ? { responseJson } : {}),
          ...(errorCode !== undefined ? { errorCode } : {}),
          ...(injected ? { injected } : {}),
        };
        // Observations end in answer order; the judge reads requests in arrival order.
        let i = requests.length;
        while (i > 0 && requests[i - 1]!.id > record.id) i--;
        requests.splice(i, 0, record);
        budget.hold(record, evictionClass(record.endpoint, record.status));
      } else {
        const { kind: _kind, ...rest } = o;
        deliveries.push({ ...rest });
      }
      for (const l of listeners) l();
    },
    traffic: () => ({ requests: requests.slice(), deliveries: deliveries.slice() }),
    unrecorded: () => ({ ...beyond }),
    onChange(listener) {
      listeners.push(listener);
    },
  };
}
