// Every endpoint of the endpoint table is described by exactly one operation: a row added to the table
// without its words here would be missing from the OpenAPI description without a word.

import { describe, expect, it } from 'vitest';
import { ENDPOINT_LIST } from '../api/endpoints.js';
import { OPERATIONS } from './operations.js';

describe('OPERATIONS', () => {
  it('describes each endpoint of the table once, in the table order', () => {
    expect(OPERATIONS.map((op) => op.endpoint)).toEqual(ENDPOINT_LIST.map((e) => e.name));
  });

  it('gives request examples exactly to the endpoints that take a body', () => {
    for (const op of OPERATIONS) {
      const takesBody = ENDPOINT_LIST.some((e) => e.name === op.endpoint && 'request' in e);
      expect(op.requestExamples !== undefined, op.endpoint).toBe(takesBody);
    }
  });
});
