// The assertions of t.expect that judge a value: a header, an equality, a field at a JSON pointer, an item
// of a list.

import { valueAt } from '../json/pointer.js';
import { deepEqual } from '../runner/deep-equal.js';
import { renderValue } from '../runner/render.js';
import type { Expect } from './check.js';
import type { ExpectWords } from './expect-words.js';

export const headerAssertion =
  (w: ExpectWords): Expect['header'] =>
  (res, name, expected, spec, description) => {
    const value = res.headers[name.toLowerCase()];
    const ok =
      typeof expected === 'function'
        ? expected(value)
        : expected instanceof RegExp
          ? value !== undefined && expected.test(value)
          : value === expected;
    if (ok) return true;
    const want =
      description ??
      (typeof expected === 'function'
        ? 'a different value'
        : expected instanceof RegExp
          ? `a value matching ${expected}`
          : `"${expected}"`);
    return w.record(
      {
        message: `${w.req(res)} answered header ${name} ${value === undefined ? 'absent' : renderValue(value)}; the spec requires ${want}`,
        spec,
        expected: want,
        received: renderValue(value),
      },
      res,
    );
  };

export const equalAssertion =
  (w: ExpectWords): Expect['equal'] =>
  (actual, expected, what, spec, exchange) => {
    if (deepEqual(actual, expected)) return true;
    return w.record(
      {
        message: `${exchange ? `${w.req(exchange)}: ` : ''}${what} is ${renderValue(actual, 120)}; the spec requires ${renderValue(expected, 120)}`,
        spec,
        expected: renderValue(expected),
        received: renderValue(actual),
      },
      exchange,
    );
  };

export const fieldAssertion =
  (w: ExpectWords): Expect['field'] =>
  (res, pointer, expected, spec, description) => {
    const value = valueAt(res.json, pointer);
    const ok = typeof expected === 'function' ? expected(value) : deepEqual(value, expected);
    if (ok) return true;
    const want = description ?? (typeof expected === 'function' ? 'a different value' : renderValue(expected, 120));
    return w.record(
      {
        message: `${w.req(res)} answered ${pointer} ${value === undefined ? 'absent' : renderValue(value, 120)}; the spec requires ${want}`,
        spec,
        pointer,
        expected: want,
        received: renderValue(value),
      },
      res,
    );
  };

export const someAssertion =
  (w: ExpectWords): Expect['some'] =>
  (items, matches, obs, exchange) => {
    if (items.some(matches)) return true;
    const received =
      obs.received === undefined
        ? renderValue(items)
        : typeof obs.received === 'string'
          ? obs.received
          : renderValue(obs.received);
    return w.record(
      {
        message: `${obs.what} has no item ${obs.description}; ${items.length === 0 ? 'it is empty' : `it holds ${received}`}`,
        spec: obs.spec,
        pointer: obs.pointer,
        expected: `an item ${obs.description}`,
        received,
      },
      exchange,
    );
  };
