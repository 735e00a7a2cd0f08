// Authentication rule 8: on 401 invalid_org_token the customer connection must be renewed with a new
// code, so the token that drew it is not used again. The certifier revokes one organization's token
// itself (the org-token-revoked injection), so no client has to forge a token to be judged.

import { S } from '../../spec/sections.js';
import type { PartnerRequest } from '../traffic.js';
import { retryWindowMs, sameRequest, seconds } from './retry-chains.js';
import { ruleVerdict, type TrafficObservation, type Rule } from './rule.js';

export const orgTokenRule: Rule = {
  id: 'org-token.not-used-after-invalid-org-token',
  title: 'After 401 invalid_org_token the token is not used again',
  suite: 'org-token',
  evidence: 'provoked',
  warns: ['the refused token is sent again with a redeem, which takes no org token'],
  spec: [S.authentication, S.crossCutting],
  hint: 'keep working with your customer after the other steps: once every other duty is judged, the certifier revokes its org token at its next call, as the operator would (a second customer connected in the session is revoked after its first accepted call instead), and calls answer 401 invalid_org_token; renew the connection with a new code',
  judge(traffic, ctx) {
    const offences: TrafficObservation[] = [];
    const warnings: TrafficObservation[] = [];
    const refused = new Map<string, PartnerRequest>();
    const window = retryWindowMs(ctx);
    for (const r of traffic.requests) {
      const token = r.headers['x-svc-org'];
      if (!token) continue;
      const answer = refused.get(token);
      if (answer !== undefined) {
        if (r.at > answer.answeredAt) {
          const o: TrafficObservation = {
            message: `an org token refused with 401 invalid_org_token was sent again ${seconds(r.at - answer.answeredAt)} later (${r.method} ${r.path})`,
            expected: 'renew the connection with a new activation code',
            received: 'the refused token in x-svc-org',
            requests: [answer.id, r.id],
          };
          // The redeem that renews the connection takes no org token ("x-partner-key only"): a stale header
          // carried along authenticates nothing.
          if (r.endpoint === 'redeem')
            warnings.push({
              ...o,
              message: o.message,
              reading:
                'the redeem renewing the connection takes no org token and the stale header authenticates nothing',
              otherReading: 'the refused token sent again',
            });
          // Another call soon after, not the refused one again: another worker or recruiter session of the
          // same customer that had not yet learned of the refusal. The spec forbids retrying the call
          // (never retry 401) and asks for a renewal, not for every session to stop at the same instant.
          else if (!sameRequest(answer, r) && r.at - answer.answeredAt <= window)
            warnings.push({
              ...o,
              message: o.message,
              reading: `another session of the same customer, still unaware of the refusal, since it is another call sent within ${seconds(window)}`,
              otherReading: 'the client kept using a refused token',
            });
          else offences.push(o);
        }
      }
      if (r.status === 401 && r.errorCode === 'invalid_org_token' && !refused.has(token)) refused.set(token, r);
    }
    return ruleVerdict(orgTokenRule, ctx, {
      offences,
      warnings,
      exercised: refused.size > 0,
      passMessage: `${refused.size} refused org token(s), none used again`,
    });
  },
};
