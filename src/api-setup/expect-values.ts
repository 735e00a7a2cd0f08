// The assertions of t.expect that judge a value: a header, an equality, a field at a JSON pointer, an item
// of a list.

import { valueAt } from '../json/pointer.js';
import { deepEqual } from '../runner/deep-equal.js';
import { renderValue } from '../runner/render.js';
import type { ApiResponse } from '../http/types.js';
import type { Expect, WrittenObservation } from './check.js';
import type { ExpectWords } from './expect-words.js';

/**
 * The one failure of a value read from an answer (a header, a field): "GET /jobs/7 answered X absent" or
 * "… answered X <value>" (its first `width` characters), then what the spec requires.
 */
function answeredOtherwise(
  w: ExpectWords,
  res: ApiResponse,
  failure: {
    what: string;
    value: unknown;
    want: string;
    spec: WrittenObservation['spec'];
    pointer?: string;
    width?: number;
  },
): false {
  const { what, value, want, spec, pointer, width } = failure;
  return w.record(
    {
      message: `${w.req(res)} answered ${what} ${value === undefined ? 'absent' : renderValue(value, width)}; the spec requires ${want}`,
      spec,
      ...(pointer === undefined ? {} : { pointer }),
      expected: want,
      received: renderValue(value),
    },
    res,
  );
}

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
    return answeredOtherwise(w, res, { what: `header ${name}`, value, want, spec });
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
    return answeredOtherwise(w, res, { what: pointer, value, want, spec, pointer, width: 120 });
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
