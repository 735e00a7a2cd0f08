// The validators of option values, shared by the option tables: each takes the value with where the
// user wrote it and returns the typed value, or throws a ConfigError of one line that says what is
// wrong and how to fix it.

import { normalizeActivationCode } from './activation-code.js';
import { isOneOf } from '../narrow.js';
import { ConfigError } from './config-error.js';
import { EXPLORE_MAX } from './explore-defaults.js';
import type { ListenAddress } from './config.js';
import type { Sourced } from './option-spec.js';
import { MIN_SECRET_LENGTH, previewSecret } from './redact.js';
import { exactShape, SECRET_BODY_LENGTH, type SecretShape } from '../secret-shapes.js';

export function validateBaseUrl(s: Sourced<string>): string {
  let url: URL;
  try {
    url = new URL(s.value);
  } catch {
    throw new ConfigError(`${s.source} must be an absolute http(s) URL ending in /v1 (got "${s.value}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${s.source} must use http:// or https:// (got "${s.value}")`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigError(
      `${s.source} must not carry a query, fragment or credentials (got "${url.origin}${url.pathname}…")`,
    );
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/v1')) {
    throw new ConfigError(
      `${s.source} must end in /v1, the API's base path (got "${s.value}"; try "${url.origin}${path}/v1")`,
    );
  }
  return `${url.origin}${path}`;
}

export function validateHttpUrl(s: Sourced<string>): string {
  let url: URL;
  try {
    url = new URL(s.value);
  } catch {
    throw new ConfigError(`${s.source} must be an absolute http(s) URL (got "${s.value}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${s.source} must use http:// or https:// (got "${s.value}")`);
  }
  return url.href;
}

/**
 * A free-form secret (the webhook signing secret): at least MIN_SECRET_LENGTH characters, since a
 * shorter one cannot be redacted without mangling every message it occurs in (a secret "x").
 */
export function validateSecretText(s: Sourced<string>): string {
  if (s.value.length < MIN_SECRET_LENGTH) {
    throw new ConfigError(
      `${s.source} is ${s.value.length} character(s) long, too short to redact safely from every report; a webhook secret has at least ${MIN_SECRET_LENGTH}`,
    );
  }
  return s.value;
}

/** A partner key (`spk_live_`) or org token (`sot_`): the prefix and 48 lowercase hex characters. */
export function secretValidator(shape: SecretShape): (s: Sourced<string>) => string {
  const re = exactShape(shape);
  return (s) => {
    if (!re.test(s.value)) {
      throw new ConfigError(
        `${s.source} must be ${shape.what}: "${shape.prefix}" followed by ${SECRET_BODY_LENGTH} lowercase hex characters (got "${previewSecret(s.value)}", ${s.value.length} characters)`,
      );
    }
    return s.value;
  };
}

export function validateCode(s: Sourced<string>): string {
  const code = normalizeActivationCode(s.value);
  if (!code) {
    throw new ConfigError(
      `${s.source} must be an activation code of the form SVC-XXXX-XXXX with X from ABCDEFGHJKMNPQRSTUVWXYZ23456789 (got "${s.value}")`,
    );
  }
  return code;
}

export function validateListen(s: Sourced<string>): ListenAddress {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s]+)):(\d{1,5})$/.exec(s.value);
  const port = m ? Number(m[3]) : NaN;
  if (!m || port > 65535) {
    throw new ConfigError(`${s.source} must be HOST:PORT, e.g. 127.0.0.1:8787 or 0.0.0.0:0 (got "${s.value}")`);
  }
  return { host: m[1] ?? m[2]!, port };
}

export function oneOf<T extends string>(choices: readonly T[]): (s: Sourced<string>) => T {
  return (s) => {
    const { value } = s;
    if (!isOneOf(choices, value))
      throw new ConfigError(`${s.source} must be one of ${choices.join(', ')} (got "${value}")`);
    return value;
  };
}

/**
 * Plain decimal notation only: `Number()` also reads `0x10`, `0b1`, `1e7` and `Infinity`, which nobody
 * types on purpose for a count, and `1e12` slipped past the bounds of what it looked like.
 */
const DECIMAL = /^\d+(?:\.\d+)?$/;

function numberValidator(ok: (n: number) => boolean, what: string): (s: Sourced<string>) => number {
  return (s) => {
    const n = DECIMAL.test(s.value) ? Number(s.value) : NaN;
    if (!ok(n)) throw new ConfigError(`${s.source} must be ${what} (got "${s.value}")`);
    return n;
  };
}

export const positiveNumber = numberValidator((n) => Number.isFinite(n) && n > 0, 'a number > 0');
export const requestsPerMinute = numberValidator(
  (n) => Number.isInteger(n) && n >= 1,
  'a whole number of requests per minute >= 1',
);
export const wholeCredits = numberValidator((n) => Number.isInteger(n) && n >= 0, 'a whole number of credits >= 0');
/** --explore: a count of generated requests, up to the documented maximum. */
export const exploreCount = numberValidator(
  (n) => Number.isInteger(n) && n >= 0 && n <= EXPLORE_MAX,
  `a whole number of requests from 0 to ${EXPLORE_MAX}`,
);
/** A seed of the exploration's generator: fast-check takes a 32-bit integer. */
const seedNumber = numberValidator(
  (n) => Number.isInteger(n) && n >= 0 && n <= 0x7fffffff,
  'a whole number from 0 to 2147483647',
);
/** --seed: a number, or `random` for a seed drawn now (opt-in: the default is fixed). */
export function seedOption(s: Sourced<string>): number | 'random' {
  if (s.value === 'random') return 'random';
  try {
    return seedNumber(s);
  } catch {
    throw new ConfigError(`${s.source} must be random or a whole number from 0 to 2147483647 (got "${s.value}")`);
  }
}
export const portNumber = numberValidator(
  (n) => Number.isInteger(n) && n >= 0 && n <= 65535,
  'a whole number from 0 to 65535',
);

/** An http(s) URL kept exactly as written (a webhook URL is registered as the operator typed it). */
export function validateHttpUrlAsWritten(s: Sourced<string>): string {
  validateHttpUrl(s);
  return s.value;
}
