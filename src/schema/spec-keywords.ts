// The two keywords by which the schemas of the API say only what the spec says.
//
// `"x-spec": { "<keyword>": "<the spec's words>" | ["…", "…"] }` sits beside every constraint (required,
// enum, const, format, pattern, a bound, int64, x-expected) and quotes the sentence or table row it
// comes from; a test fails a constraint without one, or a quote the spec does not contain. To ajv it is
// an annotation: it validates nothing.
//
// `"x-expected": ["field", …]` lists fields the spec's table gives but never states as always present
// (only "Required fields: …", a Required column, "All fields required", "always present" or an
// endpoint's list of what its answer carries state that). A value lacking one is not a mismatch: the
// validator notes it, and a check records a warning naming the reading.

import type { KeywordDefinition } from 'ajv/dist/2020.js';
import { isJsonObject } from '../json/lossless.js';

export const SPEC_KEYWORD = 'x-spec';
export const EXPECTED_KEYWORD = 'x-expected';

/** A listed field a value lacks: where it belongs (JSON pointer) and its name. */
export interface MissingExpected {
  pointer: string;
  field: string;
}

/**
 * Where the validation in progress writes the fields it finds missing. Validation is synchronous and
 * one at a time, so a single slot serves: the validator sets it, validates, and takes it back.
 */
let sink: MissingExpected[] | undefined;

/** At most this many missing fields are noted per value: a hostile answer's million items need not each be. */
const MAX_NOTED_MISSING = 200;

/** Runs `validate` and returns what it returned together with the expected fields it found missing. */
export function collectingMissing<T>(validate: () => T): { result: T; missing: MissingExpected[] } {
  const outer = sink;
  const missing: MissingExpected[] = [];
  sink = missing;
  try {
    return { result: validate(), missing };
  } finally {
    sink = outer;
  }
}

function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export const specKeyword: KeywordDefinition = {
  keyword: SPEC_KEYWORD,
  schemaType: 'object',
};

export const expectedKeyword: KeywordDefinition = {
  keyword: EXPECTED_KEYWORD,
  schemaType: 'array',
  // Never an error: a missing listed field is a note, read by collectingMissing's caller.
  validate: (fields: readonly string[], data: unknown, _parent?: unknown, cxt?: { instancePath: string }) => {
    if (sink && isJsonObject(data))
      for (const field of fields)
        if (!Object.hasOwn(data, field) && sink.length < MAX_NOTED_MISSING)
          sink.push({ pointer: `${cxt?.instancePath ?? ''}/${escapeToken(field)}`, field });
    return true;
  },
  errors: false,
};
