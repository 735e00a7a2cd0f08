import type { FaultDefinition } from './types.js';

export const fixturesFaults: FaultDefinition[] = [
  {
    id: 'fixtures.notices-ignore-english',
    area: 'fixtures',
    summary: 'fixture runs render their notices in Hebrew even when x-svc-lang: en is asked for',
    caughtBy: 'fixtures.cert-notices-all.read-matches-table-en',
  },
  {
    id: 'fixtures.extra-fields-missing-on-decisions',
    area: 'fixtures',
    summary: '`cert-extra-fields` decisions response carries no unknown field',
    caughtBy: 'fixtures.cert-extra-fields.reveal-and-decisions-carry-extra-fields',
  },
];
