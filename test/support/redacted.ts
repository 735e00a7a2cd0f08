// Reporters accept only a redacted result: a fixture goes through a redactor like any run's result.
import { createRedactor } from '../../src/config/redact.js';
import type { Redacted } from '../../src/config/redacted.js';

export function redacted<T>(value: T): Redacted<T> {
  return createRedactor([]).value(value);
}
