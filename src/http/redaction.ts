// Every secret the client meets goes to the redactor: the partner key at once, the primary org token
// when a request carries it, an org token found in an answer when it arrives. The redactor learns
// some of them only after an exchange was recorded (the redemption that returns a token), so every
// record made is kept and redacted again, for the new secrets only, whenever one is learned: once per answer, however many
// tokens it brought, and at most MAX_LEARNED_TOKENS times in a session, so a target handing out a token
// per answer cannot make the redaction of the records quadratic.

import { createRedactor, type NamedSecret, type Redactor } from '../config/redact.js';
import { namedSecret } from '../config/secret-options.js';
import type { JsonValue } from '../json/lossless.js';
import { reRedactExchange } from './record.js';
import type { RecordedExchange } from './recorded-exchange.js';
import { discoverOrgTokens } from './token-discovery.js';

export interface ClientRedaction {
  /** An org token about to be sent: returned as is, a secret from now on. */
  orgToken(token: string | undefined): string | undefined;
  /** Org tokens an answer carries become secrets before the answer is recorded. */
  answer(json: JsonValue | undefined): void;
  /** A record to redact again when a secret is learned later. */
  track(exchange: RecordedExchange): void;
  close(): void;
  /** Org tokens of answers not made secrets: past the bounds of token-discovery.ts or MAX_LEARNED_TOKENS. */
  ignoredTokens(): number;
}

/** Org tokens learned from answers in one session; a run against the sandbox learns a few dozen. */
export const MAX_LEARNED_TOKENS = 256;

export function createClientRedaction(redactor: Redactor, partnerKey: string): ClientRedaction {
  const recorded: RecordedExchange[] = [];
  let batching = false;
  let missed = false;
  let learned = 0;
  let ignored = 0;
  /** Secrets learned since the records were last redacted: the only ones to look for in them again. */
  let fresh: NamedSecret[] = [];
  const redactAgain = (): void => {
    const only = createRedactor(fresh);
    fresh = [];
    for (const exchange of recorded) reRedactExchange(exchange, only);
  };
  const stopWatching = redactor.onAdd((secret) => {
    fresh.push(secret);
    if (batching) missed = true;
    else redactAgain();
  });
  redactor.add(namedSecret('partnerKey', partnerKey));
  return {
    orgToken(token) {
      if (token) redactor.add(namedSecret('orgToken', token));
      return token;
    },
    answer(json) {
      const found = discoverOrgTokens(json);
      ignored += found.ignored;
      batching = true;
      try {
        for (const token of found.tokens) {
          if (learned >= MAX_LEARNED_TOKENS) {
            ignored++;
            continue;
          }
          learned++;
          redactor.add(namedSecret('orgToken', token));
        }
      } finally {
        batching = false;
      }
      if (missed) {
        missed = false;
        redactAgain();
      }
    },
    ignoredTokens: () => ignored,
    track: (exchange) => recorded.push(exchange),
    close: stopWatching,
  };
}
