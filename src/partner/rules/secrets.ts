// Keys and tokens travel only in their headers (What the service does, General rules: "Keys and tokens
// must never reach a browser, mobile app, URL…"; Endpoints › Common headers; Authentication rule 7).

import { credentialFinder, credentialShapeOf } from '../../secret-shapes.js';
import { S } from '../../spec/sections.js';
import type { JudgeContext, PartnerRequest, Traffic } from '../traffic.js';
import { ruleVerdict, type TrafficObservation, type Rule } from './rule.js';

/** A key or token by its prefix, not preceded by a letter, digit or underscore (as the bundle scan matches). */
const SECRET_SHAPE = credentialFinder(8);

function decoded(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** The secrets the session knows (partner keys, org tokens, the webhook secret), and with `shapes` the spec's shapes too. */
function containsSecret(text: string, known: readonly string[], shapes: boolean): string | undefined {
  for (const v of [text, decoded(text)]) {
    // A match starts with its prefix (the finder's look-behind takes no character).
    const found = shapes ? SECRET_SHAPE.exec(v) : null;
    const shape = found ? credentialShapeOf(found[0]) : undefined;
    if (shape) return shape.what;
    for (const s of known)
      if (s.length >= 8 && v.includes(s)) return credentialShapeOf(s)?.what ?? 'the webhook secret';
  }
  return undefined;
}

/** Org tokens the sandbox issued to this partner (from redemptions it answered). */
export function issuedTokens(traffic: Traffic): string[] {
  const out: string[] = [];
  for (const r of traffic.requests) {
    const token =
      r.endpoint === 'redeem' && r.responseJson && typeof r.responseJson === 'object'
        ? (r.responseJson as { org_token?: unknown }).org_token
        : undefined;
    if (typeof token === 'string') out.push(token);
  }
  return out;
}

/**
 * `body`: Authentication rule 7 lists browser, mobile app, URL, customer-visible log and frontend bundle,
 * not a request body to the service. In a body only a key or token the session issued is looked for (the
 * mere shape, a job description mentioning `sot_settings`, is text), and it warns, never fails.
 */
function secretRule(
  opts: { id: string; title: string; where: string; part: (r: PartnerRequest) => string; body?: true },
  known: () => readonly string[],
): Rule {
  const rule: Rule = {
    id: opts.id,
    title: opts.title,
    suite: 'secrets',
    evidence: 'provoked',
    // In a body a key or token only warns (rule 7 does not list request bodies to the service).
    ...(opts.body ? { warns: ['a key or token the session issued is sent in a request body'] } : {}),
    spec: [S.general, S.commonHeaders, S.authentication],
    hint: 'send any request from your server',
    judge(traffic: Traffic, ctx: JudgeContext) {
      const secrets = [...known(), ...issuedTokens(traffic)];
      const offences: TrafficObservation[] = [];
      const warnings: TrafficObservation[] = [];
      for (const r of traffic.requests) {
        const found = containsSecret(opts.part(r), secrets, !opts.body);
        if (!found) continue;
        const offence = {
          message: `${found} sent in the ${opts.where} of ${r.method} ${r.path}`,
          expected: 'keys and tokens only in x-partner-key / x-svc-org',
          received: `${found} in the ${opts.where}`,
          requests: [r.id],
        };
        if (opts.body)
          warnings.push({
            ...offence,
            message: `${offence.message} (Authentication rule 7 does not list request bodies to the service; the headers are where keys and tokens go)`,
          });
        else offences.push(offence);
      }
      return ruleVerdict(rule, ctx, {
        offences,
        warnings,
        exercised: traffic.requests.length > 0,
        passMessage: `no key or token in the ${opts.where} of ${traffic.requests.length} request(s)`,
      });
    },
  };
  return rule;
}

export function secretRules(known: () => readonly string[]): Rule[] {
  return [
    secretRule(
      {
        id: 'secrets.not-in-url',
        title: 'Keys and tokens never in a URL (path or query)',
        where: 'URL',
        part: (r) => (r.query ? `${r.path}?${r.query}` : r.path),
      },
      known,
    ),
    secretRule(
      {
        id: 'secrets.not-in-body',
        title: 'Keys and tokens never in a request body',
        where: 'body',
        part: (r) => r.bodyText,
        body: true,
      },
      known,
    ),
  ];
}
