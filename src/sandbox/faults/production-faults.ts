import type { FaultDefinition } from './types.js';

// Production mode (`mode: 'production'`) with one sandbox-only thing left in (Versioning rule 4).
export const productionFaults = [
  {
    id: 'production.sandbox-route-served',
    area: 'production',
    summary: '`POST /sandbox/webhooks/test` is served in production instead of `404 not_found`',
    caughtBy: 'production.sandbox-route-404',
  },
  {
    id: 'production.simulate-honoured',
    area: 'production',
    summary: '`x-svc-sandbox-simulate` is honoured in production',
    caughtBy: 'production.simulate-header-ignored',
  },
  {
    id: 'production.reveal-price-honoured',
    area: 'production',
    summary: '`x-svc-sandbox-reveal-price` is honoured in production',
    caughtBy: 'production.reveal-price-header-ignored',
  },
  {
    id: 'production.fixtures-served',
    area: 'production',
    summary: '`cert-*` job ids are served as sandbox fixtures in production',
    caughtBy: 'production.cert-prefix-not-fixture',
  },
  {
    id: 'production.reveal-sandbox-flag',
    area: 'production',
    summary: 'a production reveal result carries `sandbox: true`',
    caughtBy: 'reveal.production-no-sandbox-field',
  },
  {
    id: 'production.webhook-environment-header',
    area: 'production',
    summary: 'production webhook deliveries carry `x-svc-environment: sandbox`',
    caughtBy: 'webhooks.production-no-environment-header',
  },
  {
    id: 'production.insufficient-credits-bare',
    area: 'production',
    summary:
      'a production reveal refused for credits answers `402 insufficient_credits` without `balance` and `required`',
    caughtBy: 'reveal.production-insufficient-credits-body',
  },
  {
    id: 'production.reveal-overdraws',
    area: 'production',
    summary:
      'a production reveal the wallet cannot pay goes through and leaves a negative balance instead of `402 insufficient_credits`',
    caughtBy: 'reveal.production-insufficient-credits-body',
  },
  {
    id: 'production.sandbox-limit-enforced',
    area: 'production',
    summary: '`target_count` above 20 is refused with `422 sandbox_limit` in production',
    caughtBy: 'production.sandbox-only-errors-absent',
  },
] as const satisfies readonly FaultDefinition[];
