// What the reports keep of a check's exchanges. Passed and skipped checks: each body cut to
// PASSED_BODY_CHARS with its size and SHA-256, so a clean run's record stays small. A check that did
// not pass keeps the exchanges its observations cite as recorded (bodies up to RECORDED_BODY_LIMIT):
// they are the evidence a person reads; its other exchanges (setup, context) keep CONTEXT_BODY_CHARS
// of their bodies and their curl. Against a hostile target every failed check's context held 64 KiB
// bodies: 18 MB per report.

import { detachedHead, sha256Hex } from '../http/record.js';
import { CONTEXT_BODY_CHARS, PASSED_BODY_CHARS } from './limits.js';
import type { CheckResult, CheckExchange, RunResult } from './results.js';

type Message = CheckExchange['request'] | NonNullable<CheckExchange['response']>;

/** Statuses whose exchanges are cut: nothing in them is a finding. */
const CUT_STATUSES: ReadonlySet<CheckResult['status']> = new Set(['passed', 'skipped']);

function capped<M extends Message>(message: M, chars = PASSED_BODY_CHARS): M {
  const body = message.body;
  if (body === undefined || body.length <= chars) return message;
  return {
    ...message,
    body: detachedHead(body, chars),
    bodyTruncated: true,
    bodyBytes: message.bodyBytes ?? Buffer.byteLength(body, 'utf8'),
    // A body cut when recorded already has the hash of all of it.
    bodySha256: message.bodySha256 ?? sha256Hex(body),
  };
}

/**
 * Each exchange cut once, however many checks share it: a results.json read back shares one exchange
 * between every check that refers to it (thousands, in a crafted file), and cutting means hashing.
 */
const cutOnce = new WeakMap<CheckExchange, CheckExchange>();

/** Bodies cut, and no curl: nothing in a passed check is to be reproduced, and its request is there. */
function cappedExchange(ex: CheckExchange): CheckExchange {
  const known = cutOnce.get(ex);
  if (known) return known;
  const { curl: _dropped, ...rest } = ex;
  const cut = { ...rest, request: capped(ex.request), ...(ex.response ? { response: capped(ex.response) } : {}) };
  cutOnce.set(ex, cut);
  return cut;
}

/** A context exchange of a check that did not pass: bodies cut to CONTEXT_BODY_CHARS, curl kept. */
function contextExchange(ex: CheckExchange): CheckExchange {
  return {
    ...ex,
    request: capped(ex.request, CONTEXT_BODY_CHARS),
    ...(ex.response ? { response: capped(ex.response, CONTEXT_BODY_CHARS) } : {}),
  };
}

function cappedCheck(c: CheckResult): CheckResult {
  if (c.exchanges.length === 0) return c;
  if (CUT_STATUSES.has(c.status)) return { ...c, exchanges: c.exchanges.map(cappedExchange) };
  const cited = new Set(c.observations.flatMap((o) => (o.exchange === undefined ? [] : [o.exchange])));
  // No observation names an exchange (an engine error, a time-out): all of them are the evidence.
  if (cited.size === 0) return c;
  return { ...c, exchanges: c.exchanges.map((ex) => (cited.has(ex.index) ? ex : contextExchange(ex))) };
}

/** The result with its exchanges' bodies cut as above (a new object; `result` unchanged). */
export function capPassedEvidence(result: RunResult): RunResult {
  return { ...result, checks: result.checks.map(cappedCheck) };
}
