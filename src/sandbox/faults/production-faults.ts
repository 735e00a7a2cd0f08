// Production mode (`mode: 'production'`) with one sandbox-only thing left in (Versioning rule 4). Most act at
// the settings point, the reveal's at its refusal and answer points.
import { reword, edited } from './reshape.js';
import type { FaultDefinition } from './types.js';
import { onAnswer, onRefusal } from './points.js';

export const productionFaults = [
  {
    id: 'production.environment-header',
    area: 'production',
    summary: 'production responses carry `x-svc-environment: sandbox`',
    caughtBy: 'production.no-environment-header',
    acts: {
      settings: (s, f) => (f.sandbox ? s : { ...s, environmentHeader: true }),
    },
  },
  {
    id: 'production.sandbox-route-served',
    area: 'production',
    summary: '`POST /sandbox/webhooks/test` is served in production instead of `404 not_found`',
    caughtBy: 'production.sandbox-route-404',
    acts: {
      settings: (s) => ({ ...s, sandboxRoutes: true }),
    },
  },
  {
    id: 'production.simulate-honoured',
    area: 'production',
    summary: '`x-svc-sandbox-simulate` is honoured in production',
    caughtBy: 'production.simulate-header-ignored',
    acts: {
      settings: (s) => ({ ...s, simulateHeader: true }),
    },
  },
  {
    id: 'production.reveal-price-honoured',
    area: 'production',
    summary: '`x-svc-sandbox-reveal-price` is honoured in production',
    caughtBy: 'production.reveal-price-header-ignored',
    acts: {
      settings: (s) => ({ ...s, revealPriceHeader: true }),
    },
  },
  {
    id: 'production.fixtures-served',
    area: 'production',
    summary: '`cert-*` job ids are served as sandbox fixtures in production',
    caughtBy: 'production.cert-prefix-not-fixture',
    acts: {
      settings: (s) => ({ ...s, fixtures: true }),
    },
  },
  {
    id: 'production.reveal-sandbox-flag',
    area: 'production',
    summary: 'a production reveal result carries `sandbox: true`',
    caughtBy: 'reveal.production-no-sandbox-field',
    acts: {
      answer: onAnswer('reveal', (r, f) =>
        !f.sandbox
          ? edited(r, (b) => {
              b.sandbox = true;
            })
          : r,
      ),
    },
  },
  {
    id: 'production.webhook-environment-header',
    area: 'production',
    summary: 'production webhook deliveries carry `x-svc-environment: sandbox`',
    caughtBy: 'webhooks.production-no-environment-header',
    acts: {
      settings: (s) => ({ ...s, webhookEnvironmentHeader: true }),
    },
  },
  {
    id: 'production.insufficient-credits-bare',
    area: 'production',
    summary:
      'a production reveal refused for credits answers `402 insufficient_credits` without `balance` and `required`',
    caughtBy: 'reveal.production-insufficient-credits-body',
    acts: {
      refusal: onRefusal('insufficient-credits', (e) => (e ? reword(e, { extra: {} }) : e)),
    },
  },
  {
    id: 'production.reveal-overdraws',
    area: 'production',
    summary:
      'a production reveal the wallet cannot pay goes through and leaves a negative balance instead of `402 insufficient_credits`',
    caughtBy: 'reveal.production-insufficient-credits-body',
    acts: {
      refusal: onRefusal('insufficient-credits', () => undefined),
    },
  },
  {
    id: 'production.sandbox-limit-enforced',
    area: 'production',
    summary: '`target_count` above 20 is refused with `422 sandbox_limit` in production',
    caughtBy: 'production.sandbox-only-errors-absent',
    acts: {
      settings: (s) => ({ ...s, sandboxTargetLimit: true }),
    },
  },
] as const satisfies readonly FaultDefinition[];
