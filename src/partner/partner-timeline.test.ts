import { describe, expect, it } from 'vitest';
import { INJECTION_POINTS } from './injection-points.js';
import { partnerRules } from './rules/index.js';
import { partnerTimeline } from './session.js';
import type { PartnerRequest, Traffic } from './traffic.js';

function request(id: number, at: number, injected?: PartnerRequest['injected']): PartnerRequest {
  return {
    id,
    at,
    answeredAt: at + 1,
    method: 'POST',
    path: '/v1/users',
    query: '',
    endpoint: 'users',
    headers: {},
    bodyText: '',
    status: injected ? 429 : 201,
    lost: false,
    responseHeaders: {},
    responseText: '',
    ...(injected ? { injected } : {}),
  };
}

describe("the partner's traffic on the session's clock", () => {
  it('names for every injection a rule the session judges', () => {
    const ids = new Set(partnerRules(() => []).map((r) => r.id));
    for (const point of INJECTION_POINTS) expect(ids, point.id).toContain(point.arms);
  });

  it('records requests per window, the injections with the rule each arranges, and the deliveries', () => {
    const start = 100_000;
    const traffic: Traffic = {
      requests: [request(1, start + 10), request(2, start + 1_200, 'rate-limited-429'), request(3, start + 1_300)],
      deliveries: [
        {
          eventId: 'e1',
          event: 'run_completed',
          runId: 'r',
          attempt: 1,
          url: 'https://partner.example/hook',
          wrongSignature: false,
          status: null,
          startedAt: start + 2_000,
          answeredAt: start + 2_400,
          ackTimeoutMs: 10_000,
        },
      ],
    };
    expect(partnerTimeline(traffic, start, start + 2_500, 60)).toEqual({
      windowMs: 1_000,
      requests: [1, 2, 0],
      deliveries: [{ event: 'run_completed', eventId: 'e1', attempt: 1, sentMs: 2_000, receivedMs: 2_400, status: 0 }],
      injections: [{ id: 'rate-limited-429', atMs: 1_200, request: 2, rule: 'retries.retry-after-honoured' }],
    });
  });
});
