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
import { discoverOrgTokens, MAX_TOKEN_CHARS, MAX_TOKENS_PER_ANSWER } from './token-discovery.js';

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
  /** The same as a sentence with its counts, for the results (undefined when every token was taken). */
  ignoredNotice(): { id: string; message: string } | undefined;
}

/** What the client left out, by bound. */
interface Ignored {
  tooLong: number;
  longest: number;
  pastAnswer: number;
  pastSession: number;
}

/**
 * A target that hands out thousands of org tokens, or one of thousands of characters, is a finding: the
 * tokens past the bounds are not redacted, and the results say how many and why.
 */
function ignoredTokensNotice(i: Ignored): { id: string; message: string } | undefined {
  // Thousands grouped by hand: the first toLocaleString loads ICU's data (over 100 ms, after a signal).
  const n = (x: number): string => String(x).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const parts = [
    ...(i.tooLong > 0
      ? [
          `${n(i.tooLong)} longer than the ${n(MAX_TOKEN_CHARS)} characters taken as a secret (the longest ${n(i.longest)})`,
        ]
      : []),
    ...(i.pastAnswer > 0 ? [`${n(i.pastAnswer)} past the ${MAX_TOKENS_PER_ANSWER} taken from one answer`] : []),
    ...(i.pastSession > 0 ? [`${n(i.pastSession)} past the ${MAX_LEARNED_TOKENS} taken in one run`] : []),
  ];
  if (parts.length === 0) return undefined;
  const total = i.tooLong + i.pastAnswer + i.pastSession;
  return {
    id: 'redaction.org-tokens-past-bounds',
    message: `the target's answers carried ${n(total)} org_token value(s) not redacted as secrets: ${parts.join('; ')} (a real org token is about 52 characters, one per redemption): they may show in the evidence as sent`,
  };
}

/** Org tokens learned from answers in one session; a run against the sandbox learns a few dozen. */
export const MAX_LEARNED_TOKENS = 256;

export function createClientRedaction(redactor: Redactor, partnerKey: string): ClientRedaction {
  const recorded: RecordedExchange[] = [];
  let batching = false;
  let missed = false;
  let learned = 0;
  let ignored = 0;
  const why: Ignored = { tooLong: 0, longest: 0, pastAnswer: 0, pastSession: 0 };
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
      why.tooLong += found.tooLong;
      why.longest = Math.max(why.longest, found.longest);
      why.pastAnswer += found.ignored - found.tooLong;
      batching = true;
      try {
        for (const token of found.tokens) {
          if (learned >= MAX_LEARNED_TOKENS) {
            ignored++;
            why.pastSession++;
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
    ignoredNotice: () => ignoredTokensNotice(why),
    track: (exchange) => recorded.push(exchange),
    close: stopWatching,
  };
}
