// The common headers (Endpoints › Common headers): `x-partner-key` on every request, `x-svc-org` on every
// request except `POST /activations/redeem`, and `x-svc-lang`, when sent, `he` or `en`. One table drives
// the three rules.

import { S } from '../../spec/sections.js';
import type { PartnerRequest } from '../traffic.js';
import { ruleVerdict, type TrafficObservation, type Rule } from './rule.js';

/** The routes of the service: a request to any other path is no API call and owes no header. */
const API = (r: PartnerRequest): boolean => r.endpoint !== 'other';

interface RequiredHeader {
  id: string;
  title: string;
  header: string;
  /** Which requests must carry it. */
  applies: (r: PartnerRequest) => boolean;
  where: string;
}

const REQUIRED: RequiredHeader[] = [
  {
    id: 'requests.partner-key-on-every-request',
    title: 'x-partner-key on every request',
    header: 'x-partner-key',
    applies: API,
    where: 'every request',
  },
  {
    id: 'requests.org-token-on-every-request-but-redeem',
    title: 'x-svc-org on every request except POST /activations/redeem',
    header: 'x-svc-org',
    applies: (r) => API(r) && r.endpoint !== 'redeem',
    where: 'every request except POST /activations/redeem',
  },
];

function requiredHeaderRule(h: RequiredHeader): Rule {
  const rule: Rule = {
    id: h.id,
    title: h.title,
    suite: 'requests',
    evidence: 'provoked',
    spec: [S.commonHeaders, S.authentication],
    hint: 'send any request from your server',
    judge(traffic, ctx) {
      const offences: TrafficObservation[] = [];
      let judged = 0;
      for (const r of traffic.requests) {
        if (!h.applies(r)) continue;
        judged += 1;
        const value = r.headers[h.header];
        if (value === undefined || value.trim() === '') {
          offences.push({
            message: `${r.method} ${r.path} sent without ${h.header}`,
            expected: `${h.header} on ${h.where}`,
            received: value === undefined ? `no ${h.header}` : `an empty ${h.header}`,
            requests: [r.id],
          });
        }
      }
      return ruleVerdict(rule, ctx, {
        offences,
        exercised: judged > 0,
        passMessage: `${judged} request(s), each with ${h.header}`,
      });
    },
  };
  return rule;
}

const LANGUAGES = ['he', 'en'];

const langRule: Rule = {
  id: 'requests.lang-he-or-en',
  title: 'x-svc-lang, when sent, is he or en',
  suite: 'requests',
  evidence: 'conditional',
  notApplicableWhen: 'the client sent no x-svc-lang header (it is optional): no value to judge',
  warns: ['x-svc-lang is empty, or he/en in another case or with spaces'],
  spec: [S.commonHeaders],
  hint: 'send x-svc-lang (he or en) with a request, e.g. a run read',
  judge(traffic, ctx) {
    const offences: TrafficObservation[] = [];
    const warnings: TrafficObservation[] = [];
    let sent = 0;
    for (const r of traffic.requests) {
      const lang = r.headers['x-svc-lang'];
      if (lang === undefined) continue;
      sent += 1;
      if (LANGUAGES.includes(lang)) continue;
      // An empty value is how many HTTP clients send an unset header: it may be read as not sent.
      if (lang.trim() === '') {
        warnings.push({
          message: `${r.method} ${r.path} sent an empty x-svc-lang`,
          reading: 'an empty header is no header, so the partner default applies',
          otherReading: 'a value other than he or en',
          expected: '`he` or `en`, or no header',
          received: '""',
          requests: [r.id],
        });
        continue;
      }
      const o = {
        message: `${r.method} ${r.path} sent x-svc-lang ${JSON.stringify(lang)}`,
        expected: '`he` or `en`',
        received: JSON.stringify(lang),
        requests: [r.id],
      };
      // Header values are often compared without case; the table writes the two values in lower case only.
      if (LANGUAGES.includes(lang.trim().toLowerCase()))
        warnings.push({
          ...o,
          message: `${o.message}: read as he/en written differently`,
          reading: 'case and spaces do not matter',
          otherReading: 'only the exact values he and en',
        });
      else offences.push(o);
    }
    return ruleVerdict(langRule, ctx, {
      offences,
      warnings,
      exercised: sent > 0,
      passMessage: `${sent} request(s) with x-svc-lang he or en`,
    });
  },
};

/**
 * POST /activations/redeem: "Headers: `x-partner-key` only (no org token)". A client that adds its org
 * token to every call sends one here too: the token of another organization, or a stale one.
 */
const redeemWithoutOrgTokenRule: Rule = {
  id: 'requests.redeem-without-org-token',
  title: 'POST /activations/redeem carries no x-svc-org',
  suite: 'requests',
  evidence: 'provoked',
  spec: [S.redeem, S.commonHeaders],
  hint: 'connect a customer: redeem an activation code (POST /activations/redeem)',
  judge(traffic, ctx) {
    const offences: TrafficObservation[] = [];
    let redeems = 0;
    for (const r of traffic.requests) {
      if (r.endpoint !== 'redeem') continue;
      redeems += 1;
      const token = r.headers['x-svc-org'];
      if (token !== undefined && token.trim() !== '')
        offences.push({
          message: `POST /activations/redeem sent with an org token in x-svc-org`,
          expected: 'x-partner-key only (no org token)',
          received: 'x-svc-org present',
          requests: [r.id],
        });
    }
    return ruleVerdict(redeemWithoutOrgTokenRule, ctx, {
      offences,
      exercised: redeems > 0,
      passMessage: `${redeems} redeem(s), none with an org token`,
    });
  },
};

export const headerRules: Rule[] = [...REQUIRED.map(requiredHeaderRule), langRule, redeemWithoutOrgTokenRule];
