// Every secret the client meets goes to the redactor: the partner key at once, the primary org token
// when a request carries it, an org token found in an answer when it arrives. The redactor learns
// some of them only after an exchange was recorded (the redemption that returns a token), so every
// record made is kept and redacted again whenever a secret is learned.

import type { Redactor } from '../config/redact.js';
import { namedSecret } from '../config/secret-options.js';
import type { JsonValue } from '../json/lossless.js';
import { reRedactExchange } from './record.js';
import type { RecordedExchange } from './recorded-exchange.js';
import { findOrgTokens } from './token-discovery.js';

export interface ClientRedaction {
  /** An org token about to be sent: returned as is, a secret from now on. */
  orgToken(token: string | undefined): string | undefined;
  /** Org tokens an answer carries become secrets before the answer is recorded. */
  answer(json: JsonValue | undefined): void;
  /** A record to redact again when a secret is learned later. */
  track(exchange: RecordedExchange): void;
  close(): void;
}

export function createClientRedaction(redactor: Redactor, partnerKey: string): ClientRedaction {
  const recorded: RecordedExchange[] = [];
  const stopWatching = redactor.onAdd(() => {
    for (const exchange of recorded) reRedactExchange(exchange, redactor);
  });
  redactor.add(namedSecret('partnerKey', partnerKey));
  return {
    orgToken(token) {
      if (token) redactor.add(namedSecret('orgToken', token));
      return token;
    },
    answer(json) {
      for (const token of findOrgTokens(json)) redactor.add(namedSecret('orgToken', token));
    },
    track: (exchange) => recorded.push(exchange),
    close: stopWatching,
  };
}
