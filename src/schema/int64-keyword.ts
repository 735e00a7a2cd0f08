// `"int64": true` — the type of candidate ids. parseJsonLossless yields a bigint for an integer
// beyond 2^53, which ajv's `type: "integer"` refuses, and a JsonDecimal for `990000000001.0`,
// which an integer check must refuse too (the spec has no such token for an id).

import type { KeywordDefinition } from 'ajv/dist/2020.js';
import { isInt64 } from '../json/lossless.js';

export const INT64_KEYWORD = 'int64';

export const int64Keyword: KeywordDefinition = {
  keyword: INT64_KEYWORD,
  schemaType: 'boolean',
  // No `type` restriction: the keyword must see strings, objects and bigints to refuse them.
  validate: (enabled: boolean, data: unknown) => !enabled || isInt64(data),
  errors: false,
};
