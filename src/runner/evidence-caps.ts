// What results.json keeps of the exchanges of checks that passed: each body cut to PASSED_BODY_CHARS
// with its size and SHA-256, so a clean run's record stays small. Checks that did not pass keep their
// exchanges as recorded (bodies up to RECORDED_BODY_LIMIT): they are the evidence a person reads.

import { sha256Hex } from '../http/record.js';
import { PASSED_BODY_CHARS } from './limits.js';
import type { CheckResult, RecordedExchange, RunResult } from './results.js';

type Message = RecordedExchange['request'] | NonNullable<RecordedExchange['response']>;

/** Statuses whose exchanges are cut: nothing in them is a finding. */
const CUT_STATUSES: ReadonlySet<CheckResult['status']> = new Set(['passed', 'skipped']);

function capped<M extends Message>(message: M): M {
  const body = message.body;
  if (body === undefined || body.length <= PASSED_BODY_CHARS) return message;
  let end = PASSED_BODY_CHARS;
  const last = body.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return {
    ...message,
    body: body.slice(0, end),
    bodyTruncated: true,
    bodyBytes: message.bodyBytes ?? Buffer.byteLength(body, 'utf8'),
    // A body cut when recorded already has the hash of all of it.
    bodySha256: message.bodySha256 ?? sha256Hex(body),
  };
}

/** Bodies cut, and no curl: nothing in a passed check is to be reproduced, and its request is there. */
function cappedExchange(ex: RecordedExchange): RecordedExchange {
  const { curl: _dropped, ...rest } = ex;
  return { ...rest, request: capped(ex.request), ...(ex.response ? { response: capped(ex.response) } : {}) };
}

/** The result with the bodies of passed and skipped checks' exchanges cut (a new object; `result` unchanged). */
export function capPassedEvidence(result: RunResult): RunResult {
  return {
    ...result,
    checks: result.checks.map((c) =>
      CUT_STATUSES.has(c.status) && c.exchanges.length > 0 ? { ...c, exchanges: c.exchanges.map(cappedExchange) } : c,
    ),
  };
}
