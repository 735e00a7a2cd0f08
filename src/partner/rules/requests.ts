// Every POST says its body is JSON (Endpoints › Common headers: `Content-Type` on every POST).

import { S } from '../../spec/sections.js';
import { ruleVerdict, type TrafficObservation, type Rule } from './rule.js';

export const contentTypeRule: Rule = {
  id: 'requests.post-content-type-json',
  title: 'Every POST carries Content-Type: application/json',
  suite: 'requests',
  evidence: 'provoked',
  spec: [S.commonHeaders],
  hint: 'send any POST (register a recruiter, start a run)',
  judge(traffic, ctx) {
    const posts = traffic.requests.filter((r) => r.method === 'POST');
    const offences: TrafficObservation[] = [];
    for (const r of posts) {
      const ct = r.headers['content-type'];
      const media = ct ? ct.split(';', 1)[0]!.trim().toLowerCase() : '';
      if (media !== 'application/json') {
        offences.push({
          message: `POST ${r.path} sent ${ct === undefined ? 'no Content-Type' : `Content-Type "${ct}"`}`,
          expected: 'application/json',
          received: ct ?? '(none)',
          requests: [r.id],
        });
      }
    }
    return ruleVerdict(contentTypeRule, ctx, {
      offences,
      exercised: posts.length > 0,
      passMessage: `${posts.length} POST(s) with Content-Type application/json`,
    });
  },
};
