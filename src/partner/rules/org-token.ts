// Authentication rule 8: on 401 invalid_org_token the customer connection must be renewed with a new
// code, so the token that drew it is never sent again.

import { P } from '../spec-refs.js';
import type { PartnerRequest } from '../traffic.js';
import { settle, type Offence, type Rule } from './rule.js';

export const orgTokenRule: Rule = {
  id: 'org-token.not-used-after-invalid-org-token',
  title: 'After 401 invalid_org_token the token is not used again',
  suite: 'org-token',
  spec: [P.authentication, P.crossCutting],
  hint: 'open a customer whose org token the sandbox does not know (e.g. sot_ followed by 48 zeros): your client must ask for a new activation code',
  judge(traffic, ctx) {
    const offences: Offence[] = [];
    const warnings: Offence[] = [];
    const refused = new Map<string, PartnerRequest>();
    for (const r of traffic.requests) {
      const token = r.headers['x-svc-org'];
      if (!token) continue;
      const answer = refused.get(token);
      if (answer !== undefined) {
        if (r.at > answer.answeredAt) {
          const o: Offence = {
            message: `an org token refused with 401 invalid_org_token was sent again (${r.method} ${r.path})`,
            expected: 'renew the connection with a new activation code',
            received: 'the refused token in x-svc-org',
            requests: [answer.id, r.id],
          };
          // The redeem that renews the connection takes no org token ("x-partner-key only"): a stale header
          // carried along authenticates nothing.
          if (r.endpoint === 'redeem')
            warnings.push({
              ...o,
              message: `${o.message} (reading taken: the redeem renewing the connection takes no org token and the stale header authenticates nothing; the other reading: the refused token sent again)`,
            });
          else offences.push(o);
        }
      }
      if (r.status === 401 && r.errorCode === 'invalid_org_token' && !refused.has(token)) refused.set(token, r);
    }
    return settle(orgTokenRule, ctx, {
      offences,
      warnings,
      exercised: refused.size > 0,
      passMessage: `${refused.size} refused org token(s), none used again`,
    });
  },
};
