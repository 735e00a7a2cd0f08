// Candidate ids are int64 and "may exceed 2^31" (Resources and their fields › Identifier conventions;
// Limits: "Candidate id size: 64-bit integer"). A reveal path or a decision's `candidate_id` names a
// candidate the run listed digit for digit: an id read through a double (JSON.parse in JavaScript, a
// float in any language) above 2^53 comes out as a neighbour, which names another candidate or none.

import { matchWireEndpoint } from '../../api/endpoints.js';
import { isJsonObject, parseJsonLossless, type JsonValue } from '../../json/lossless.js';
import { S } from '../../spec/sections.js';
import type { PartnerRequest, Traffic } from '../traffic.js';
import { ruleVerdict, type TrafficObservation, type Rule } from './rule.js';

const TWO_POW_53 = 2n ** 53n;

function lossless(text: string): JsonValue | undefined {
  if (text === '') return undefined;
  try {
    return parseJsonLossless(text);
  } catch {
    return undefined;
  }
}

/** The integer token of an id, as written (bigint or safe number), or undefined. */
function idToken(v: JsonValue | undefined): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  if (typeof v === 'string' && /^\d+$/.test(v)) return BigInt(v);
  return undefined;
}

/** Candidate ids each run listed in a successful read, exact. */
function listedIds(traffic: Traffic): Map<string, Set<bigint>> {
  const out = new Map<string, Set<bigint>>();
  for (const r of traffic.requests) {
    if (r.endpoint !== 'runs-read' || r.status !== 200 || r.runId === undefined) continue;
    const body = lossless(r.responseText);
    const list = isJsonObject(body) ? body.candidates : undefined;
    if (!Array.isArray(list)) continue;
    const set = out.get(r.runId) ?? new Set<bigint>();
    for (const c of list) {
      const id = isJsonObject(c) ? idToken(c.id) : undefined;
      if (id !== undefined) set.add(id);
    }
    out.set(r.runId, set);
  }
  return out;
}

/** The candidate ids a request names: the reveal path's, or each decision's `candidate_id`. */
function namedIds(r: PartnerRequest): bigint[] {
  if (r.endpoint === 'reveal') {
    const m = matchWireEndpoint(r.method, r.path);
    const id = m?.name === 'reveal' ? idToken(m.params.candidate_id) : undefined;
    return id === undefined ? [] : [id];
  }
  if (r.endpoint !== 'decisions') return [];
  const body = lossless(r.bodyText);
  const list = isJsonObject(body) ? body.decisions : undefined;
  if (!Array.isArray(list)) return [];
  return list.flatMap((d) => {
    const id = isJsonObject(d) ? idToken(d.candidate_id) : undefined;
    return id === undefined ? [] : [id];
  });
}

/** The listed id a double would have turned into `sent` (the same double, another integer). */
function roundedFrom(sent: bigint, listed: ReadonlySet<bigint>): bigint | undefined {
  for (const id of listed) if (id !== sent && Number(id) === Number(sent)) return id;
  return undefined;
}

export const candidateIdsRule: Rule = {
  id: 'requests.candidate-ids-exact',
  title: 'Candidate ids are sent back digit for digit (int64, never through a float)',
  suite: 'requests',
  evidence: 'provoked',
  spec: [S.identifiers, S.reveal, S.decisionItem],
  hint: 'reveal or report a decision on a candidate of a real run (a run of one of your own jobs): the sandbox gives every fourth profile an id above 2^53',
  judge(traffic, ctx) {
    const listed = listedIds(traffic);
    const offences: TrafficObservation[] = [];
    const proof: number[] = [];
    for (const r of traffic.requests) {
      if (r.runId === undefined) continue;
      const ids = listed.get(r.runId);
      if (!ids) continue;
      for (const sent of namedIds(r)) {
        if (ids.has(sent)) {
          if (sent > TWO_POW_53 && !proof.includes(r.id)) proof.push(r.id);
          continue;
        }
        const original = roundedFrom(sent, ids);
        if (original === undefined) continue;
        offences.push({
          message: `${r.method} ${r.path} named candidate ${sent}, but the run listed ${original}: the id went through a float (${original} is above 2^53)`,
          expected: `candidate ${original}, digit for digit`,
          received: String(sent),
          requests: [r.id],
        });
      }
    }
    const verdict = ruleVerdict(candidateIdsRule, ctx, {
      offences,
      exercised: proof.length > 0,
      passMessage: `${proof.length} request(s) named candidates above 2^53 exactly`,
      proof,
    });
    // Where a run already listed one, the hint names it: the recruiter's decision on it is the step's own.
    if (verdict.state !== 'pending' && verdict.state !== 'skipped') return verdict;
    for (const [runId, ids] of listed)
      for (const id of ids)
        if (id > TWO_POW_53)
          return {
            ...verdict,
            message: `${verdict.message}; run ${runId} lists candidate ${id}, above 2^53: reveal it or report a decision on it`,
          };
    return verdict;
  },
};
